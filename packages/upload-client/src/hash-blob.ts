/**
 * Hashing a `Blob` on the thread that calls it (the page's main thread, or the hash worker): the four
 * algorithms of `CHECKSUM_ALGORITHMS` by `hash-wasm` (WebAssembly), reading the blob {@link READ_SIZE} bytes
 * at a time into one reused buffer, never whole; SHA-256 of up to {@link SUBTLE_MAX_BYTES} by WebCrypto. One
 * hash at a time per thread: the next waits its turn.
 */
import type { ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { createCRC32, createCRC64, createMD5, createSHA256, type IHasher } from 'hash-wasm';

/**
 * CRC-32C (Castagnoli) in hash-wasm's reflected form: the polynomial 0x1EDC6F41 bit-reversed (RFC 3720
 * appendix B.4; check value of "123456789": e3069283).
 */
const CRC32C_POLYNOMIAL = 0x82f63b78;

/**
 * CRC-64/NVME, reflected (NVM Express NVM Command Set 1.0, section 5.2.1.3.4; S3's `CRC64NVME`), as hash-wasm
 * takes it: a hex string. Check value of "123456789": ae8b14860a799888.
 */
const CRC64NVME_POLYNOMIAL = '9a6c9329ac4bc9b5';

/** Makes the WebAssembly hasher of one algorithm (instantiated once per thread and algorithm). */
const CREATE: Readonly<Record<ChecksumAlgorithm, () => Promise<IHasher>>> = {
  crc32c: () => createCRC32(CRC32C_POLYNOMIAL),
  crc64nvme: () => createCRC64(CRC64NVME_POLYNOMIAL),
  sha256: () => createSHA256(),
  md5: () => createMD5(),
};

/**
 * Bytes read and hashed at a time, 1 MiB, into one buffer reused from hash to hash (a BYOB reader): the
 * fastest reader that keeps the heap flat; the measurements are in bench/notes/checksums.md.
 */
export const READ_SIZE = 1024 * 1024;

/**
 * The buffer that reads fill, kept from one hash to the next (they run one at a time): a multipart
 * upload allocates it once, not once per part (a new one per part grew the page heap by 27 MiB for a
 * 128 MiB file). A read takes it over (transfers it) and gives it back as its chunk's.
 */
let readBuffer: ArrayBuffer | undefined;

/**
 * Calls `use` with each chunk of `blob` in order, at most {@link READ_SIZE} bytes each, after awaiting
 * `pause` before each read. The chunk is a view of the buffer that the next read fills again: `use` must be
 * done with it when it returns.
 */
async function readChunks(blob: Blob, use: (chunk: Uint8Array) => void, pause: () => Promise<void> | void): Promise<void> {
  if (blob.size === 0) return;
  let reader: ReadableStreamBYOBReader;
  try {
    reader = blob.stream().getReader({ mode: 'byob' });
  } catch {
    // WebKit (2.4x): Blob.stream() is not a byte stream. Slices then, a new buffer each.
    for (let at = 0; at < blob.size; at += READ_SIZE) {
      await pause();
      use(new Uint8Array(await blob.slice(at, at + READ_SIZE).arrayBuffer()));
    }
    return;
  }
  // A buffer lost to a failed read (detached, 0 bytes long) is replaced.
  let buffer = readBuffer?.byteLength ? readBuffer : new ArrayBuffer(READ_SIZE);
  for (;;) {
    await pause();
    const read = await reader.read(new Uint8Array(buffer));
    if (read.value) buffer = readBuffer = read.value.buffer as ArrayBuffer;
    if (read.done) return;
    use(read.value);
  }
}

/**
 * Largest blob whose SHA-256 WebCrypto computes (16 MiB, bytes): read whole into memory (WebCrypto takes no
 * stream), it costs chromium about half the CPU of hash-wasm's SHA-256 (bench/RESULTS.md, "Hashing throughput
 * (issue 46)": 2.2 against 4.2 renderer CPU seconds per GiB), for at most this much memory held at once. Parts
 * (5 MiB by default) and small files take it; a larger file is streamed through hash-wasm.
 */
export const SUBTLE_MAX_BYTES = 16 * 1024 * 1024;

/** WebCrypto where this context has it (secure contexts only: https, or http on localhost / 127.0.0.1). */
const subtle = () => (globalThis.isSecureContext !== false ? globalThis.crypto?.subtle : undefined);

/** The hashers of this thread by algorithm, made on first use and reused (their WebAssembly instantiated once). */
const hashers = new Map<ChecksumAlgorithm, Promise<IHasher>>();

/** One hash at a time uses this thread's hashers and read buffer; the next waits for it. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The digest of `blob` by `algorithm` (4, 8, 32 or 16 bytes: `CHECKSUM_DIGEST_BYTES`; a CRC big-endian, as
 * S3's `x-amz-checksum-crc*` carry it), computed on this thread, after the hashes asked before it.
 * @param pause - Awaited before each read of {@link READ_SIZE} bytes (the main thread gives itself back there).
 * @throws the read's error when the file can no longer be read (e.g. it was changed on disk: `NotReadableError`).
 */
export function hashBlob(blob: Blob, algorithm: ChecksumAlgorithm, pause: () => Promise<void> | void = () => undefined): Promise<Uint8Array> {
  const run = queue.then(async () => {
    const webCrypto = algorithm === 'sha256' && blob.size <= SUBTLE_MAX_BYTES ? subtle() : undefined;
    if (webCrypto) {
      await pause();
      return new Uint8Array(await webCrypto.digest('SHA-256', await blob.arrayBuffer()));
    }
    let hasher = hashers.get(algorithm);
    if (!hasher) hashers.set(algorithm, (hasher = CREATE[algorithm]()));
    const hash = await hasher;
    hash.init();
    await readChunks(blob, (chunk) => hash.update(chunk), pause);
    return hash.digest('binary');
  });
  queue = run.catch(() => undefined);
  return run;
}
