// Cold start of a five-route handler: a fresh process imports @upbeam/upload-server (or the build in
// `UPBEAM_SERVER_DIST`, its dist/ folder), creates a handler with five routes and answers the first presigned
// preparation of each route (Fetch `Request`s, no HTTP server), then exits. The bucket has a dot, so its address
// comes from the SDK's endpoint rules: each URL signer asks an S3 client for it once (signed offline; nothing is
// sent). `UPBEAM_PRINT_TIMES=1` prints the time from the handler's creation to the fifth answer; `UPBEAM_COUNT_CLIENTS=1` with `--import ./count-clients.mjs` prints the SDK clients constructed.
const dist = process.env.UPBEAM_SERVER_DIST;
const { createUploadHandler } = await import(dist ? `${dist}/index.js` : '@upbeam/upload-server');

const started = { wall: performance.now(), cpu: process.cpuUsage() };
const ROUTES = ['avatar', 'documents', 'videos', 'receipts', 'exports'];
const handler = createUploadHandler({
  accessKeyId: 'bench-key',
  secretAccessKey: 'bench-secret',
  bucket: 'bench.uploads',
  region: 'us-east-1',
  routes: Object.fromEntries(ROUTES.map((name) => [name, { keyPrefix: `${name}/`, maxFileSize: 10 * 1024 * 1024 }])),
});
for (const route of ROUTES) {
  const body = JSON.stringify({ filename: 'holiday photo (1).jpg', filetype: 'image/jpeg', filesize: 1000, route, _upload: { strategy: 'presigned' } });
  const response = await handler(new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
  const answer = await response.json();
  if (response.status !== 200 || typeof answer.url !== 'string') throw new Error(`${route}: ${response.status} ${JSON.stringify(answer)}`);
}
// From the handler's creation to the fifth answer: wall and CPU milliseconds (the import before it is left out).
const cpu = process.cpuUsage(started.cpu);
const total = process.cpuUsage();
if (process.env.UPBEAM_PRINT_TIMES) {
  const times = { answersMs: performance.now() - started.wall, answersCpuMs: (cpu.user + cpu.system) / 1000, processCpuMs: (total.user + total.system) / 1000 };
  console.log(JSON.stringify(times));
}
if (process.env.UPBEAM_COUNT_CLIENTS) console.log(JSON.stringify(globalThis.upbeamClientsConstructed ?? {}));
