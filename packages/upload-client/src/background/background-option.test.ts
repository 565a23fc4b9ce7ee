import { describe, expect, it } from 'vitest';
import { UploadTracker } from '../upload-tracker';

// The tracker's `background` option where there is no Background Fetch (Node, as Firefox and WebKit): the summary
// says so and files go to the page's uploader. Chromium's hand-over: examples/react-vite/test/background.e2e.test.ts.
describe('UploadTracker background option without Background Fetch', () => {
  const file = () => new File(['abc'], 'a.txt', { type: 'text/plain' });

  it('leaves the summary without `background` when the option is not given', () => {
    expect(new UploadTracker().getSummary()).not.toHaveProperty('background');
  });

  it('says unavailable, and the file is sent by the uploader of the page with no `background` state', async () => {
    const sent: string[] = [];
    const tracker = new UploadTracker({
      strategy: 'presigned-post',
      background: true,
      uploader: async (picked) => {
        sent.push(picked.name);
        return { url: 'https://storage.test/a.txt', bucket: 'b', key: 'a.txt' };
      },
    });
    expect(tracker.getSummary().background).toBe('unavailable');
    const [added] = tracker.add([file()]);
    await expect.poll(() => tracker.getFile(added!.id)?.status).toBe('done');
    expect(sent).toEqual(['a.txt']);
    expect(tracker.getFile(added!.id)).not.toHaveProperty('background');
  });

  it('is read again when setOptions changes the strategy', () => {
    const tracker = new UploadTracker({ strategy: 'presigned', background: true });
    const first = tracker.getSummary();
    expect(first.background).toBe('unavailable');
    tracker.setOptions({ strategy: 'presigned-post', background: true });
    expect(tracker.getSummary()).not.toBe(first);
  });
});
