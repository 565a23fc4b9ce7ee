import { createServer } from 'node:http';
const t0 = performance.now();
const [{ createUploadHandler }, { toNodeHandler }] = await Promise.all([import('@upbeam/upload-server'), import('@upbeam/upload-server/node')]);
const t1 = performance.now();
const server = createServer(toNodeHandler(createUploadHandler()));
server.listen(0, '127.0.0.1', async () => {
  const t2 = performance.now();
  const r = await fetch(`http://127.0.0.1:${server.address().port}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filename: 'a b.jpg', filetype: 'image/jpeg', _upload: { strategy: 'presigned' } }) });
  await r.text();
  const t3 = performance.now();
  console.log(`import ${(t1 - t0).toFixed(0)} listen ${(t2 - t1).toFixed(0)} first ${(t3 - t2).toFixed(0)} ms`);
  server.close();
});
