import { describe, expect, it, vi } from 'vitest';
import { UploadClientError } from './errors';
import { UploadTracker } from './upload-tracker';

const file = (name: string) => new File(['x'], name, { type: 'image/png' });

describe('UploadTracker: maxFiles (a route rule the server cannot see)', () => {
  it('throws TOO_MANY_FILES for a larger batch before any request, and tracks none of it', () => {
    // A stub uploader: the check must come before any upload starts, so no storage is involved.
    const uploader = vi.fn(() => new Promise<never>(() => {}));
    const tracker = new UploadTracker({ maxFiles: 2, uploader });
    expect(() => tracker.add([file('a.png'), file('b.png'), file('c.png')])).toThrow(
      new UploadClientError('TOO_MANY_FILES', 'At most 2 files at once; got 3.'),
    );
    expect(tracker.getSnapshot()).toEqual([]);
    expect(uploader).not.toHaveBeenCalled();
    expect(tracker.add([file('a.png'), file('b.png')])).toHaveLength(2);
  });
});
