import { describe, expect, it, vi } from 'vitest';
import { singlePutChecksum } from './single-put-checksum';
import { hashAheadFor } from './upload-file';

// The tracker's hashing ahead (`hashAheadFor`, its module loaded with import() on first use): the file's own
// upload then finds the digest kept and reads the file no more.

/** A File that counts the times it is read (each hash reads it once). */
class CountedFile extends File {
  reads = 0;
  override stream() {
    this.reads++;
    return super.stream();
  }
  override arrayBuffer() {
    this.reads++;
    return super.arrayBuffer();
  }
}

const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256);
const file = () => new CountedFile([bytes], 'a.bin');

describe('hashAheadFor', () => {
  it('hashes a single PUT ahead by its option: the upload reads the file no more', async () => {
    const ahead = file();
    hashAheadFor(ahead, { checksum: 'crc32c' });
    await vi.waitFor(() => expect(ahead.reads).toBe(1));
    await singlePutChecksum(ahead, 'crc32c');
    expect(ahead.reads).toBe(1);
  });

  it('reads nothing without a checksum, or for a file sent in parts', async () => {
    const none = file();
    const multipart = file();
    hashAheadFor(none, { checksum: false });
    hashAheadFor(none, {});
    hashAheadFor(multipart, { checksum: 'crc32c', multipartThreshold: 1000 });
    // A hash started would have read by now (the hashing module is loaded: the test above).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([none.reads, multipart.reads]).toEqual([0, 0]);
  });
});
