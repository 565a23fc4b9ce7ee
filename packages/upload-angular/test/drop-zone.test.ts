// @vitest-environment jsdom
// The directives as an app gets them: the built package (dist/, Angular's partial compilation), linked at run
// time by Angular's JIT compiler in TestBed (an app's CLI links it ahead of time; examples/angular's browser
// tests run that build in three engines). jsdom stands in for the page here: these are the DOM bindings.
import '@angular/compiler';
import { Component, signal, type Type } from '@angular/core';
import { TestBed, type ComponentFixture } from '@angular/core/testing';
import { BrowserTestingModule, platformBrowserTesting } from '@angular/platform-browser/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UpbeamDropZone, UpbeamDropZoneInput, type DropZoneOptions } from '../dist/index.js';

beforeAll(() => {
  TestBed.initTestEnvironment(BrowserTestingModule, platformBrowserTesting(), { teardown: { destroyAfterEach: true } });
});
afterEach(() => TestBed.resetTestingModule());

/** A page with the drop zone, its options a signal the test changes. */
class Host {
  readonly options = signal<DropZoneOptions>({ onDrop: () => {} });
}
const HostComponent = Component({
  selector: 'test-host',
  imports: [UpbeamDropZone, UpbeamDropZoneInput],
  template: `
    <div [upbeamDropZone]="options()" #zone="upbeamDropZone" [class.active]="zone.isDragActive()">
      <input upbeamDropZoneInput />
    </div>
  `,
})(Host) as Type<Host>;

async function render(options: Partial<DropZoneOptions>) {
  const onDrop = vi.fn();
  const fixture: ComponentFixture<Host> = TestBed.createComponent(HostComponent);
  fixture.componentInstance.options.set({ onDrop, ...options });
  fixture.detectChanges();
  await fixture.whenStable();
  const root = fixture.nativeElement.querySelector('div') as HTMLDivElement;
  const input = root.querySelector('input')!;
  return { fixture, root, input, onDrop };
}

/** An event carrying files, as a drag from the desktop or a paste does (jsdom has no DragEvent). */
function withFiles(type: string, files: File[], property: 'dataTransfer' | 'clipboardData' = 'dataTransfer') {
  const event = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(event, property, { value: { types: ['Files'], files, items: [], dropEffect: 'none' } });
  return event;
}

describe('upbeamDropZone (Angular)', () => {
  it('makes its element a button for the keyboard and its input a hidden file input from the options', async () => {
    const { fixture, root, input } = await render({ accept: 'image/*' });
    expect([root.getAttribute('role'), root.getAttribute('tabindex'), root.getAttribute('aria-disabled')]).toEqual(['button', '0', null]);
    expect([input.type, input.multiple, input.accept, input.disabled, input.hasAttribute('webkitdirectory')]).toEqual(['file', true, 'image/*', false, false]);
    expect([input.style.display, input.getAttribute('tabindex')]).toEqual(['none', '-1']);
    fixture.componentInstance.options.set({ onDrop: () => {}, disabled: true, multiple: false, directory: true });
    fixture.detectChanges();
    expect([root.getAttribute('tabindex'), root.getAttribute('aria-disabled')]).toEqual(['-1', 'true']);
    expect([input.multiple, input.hasAttribute('accept'), input.disabled, input.hasAttribute('webkitdirectory')]).toEqual([false, false, true, true]);
  });

  it('opens the file dialog on click, Enter and Space, not when disabled; open() too', async () => {
    const { fixture, root, input } = await render({});
    const click = vi.spyOn(input, 'click').mockImplementation(() => {});
    root.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    root.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true }));
    root.click();
    fixture.debugElement.children[0]!.references['zone'].open();
    expect(click).toHaveBeenCalledTimes(4);
    fixture.componentInstance.options.set({ onDrop: () => {}, disabled: true });
    fixture.detectChanges();
    root.click();
    expect(click).toHaveBeenCalledTimes(4);
  });

  it('takes picked files by the rules', async () => {
    const { input, onDrop } = await render({ accept: 'image/*' });
    const png = new File(['x'], 'a.png', { type: 'image/png' });
    const pdf = new File(['x'], 'b.pdf', { type: 'application/pdf' });
    Object.defineProperty(input, 'files', { value: [png, pdf], configurable: true });
    input.dispatchEvent(new Event('change'));
    expect(onDrop).toHaveBeenCalledWith([{ file: png }], [expect.objectContaining({ file: pdf, code: 'file-invalid-type' })]);
  });

  it('is drag-active while files are dragged over it (a signal the template reads)', async () => {
    const { fixture, root } = await render({});
    const zone = fixture.debugElement.children[0]!.references['zone'] as UpbeamDropZone;
    root.dispatchEvent(withFiles('dragenter', [new File(['x'], 'a.txt')]));
    expect(zone.isDragActive()).toBe(true);
    fixture.detectChanges();
    expect(root.classList.contains('active')).toBe(true);
    root.dispatchEvent(new Event('dragleave', { bubbles: true }));
    expect(zone.isDragActive()).toBe(false);
  });

  it("takes a paste anywhere on the page with paste: 'document', until the zone is destroyed", async () => {
    const { fixture, onDrop } = await render({ paste: 'document' });
    const pasted = new File(['x'], 'pasted.png', { type: 'image/png' });
    // filesOfTransfer reads items (none here) then files.
    document.body.dispatchEvent(withFiles('paste', [pasted], 'clipboardData'));
    await vi.waitFor(() => expect(onDrop).toHaveBeenCalledTimes(1));
    expect(onDrop.mock.calls[0]![0]).toEqual([expect.objectContaining({ file: pasted })]);
    fixture.destroy();
    document.body.dispatchEvent(withFiles('paste', [pasted], 'clipboardData'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(onDrop).toHaveBeenCalledTimes(1);
  });
});
