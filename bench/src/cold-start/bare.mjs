// Cold start, the floor: a bare node:http server answering one JSON body. Plain JavaScript run by `node`
// itself (no tsx loader: it would be part of what is measured). Prints `{"port":N}` once listening.
import { createServer } from 'node:http';

const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const { filename } = JSON.parse(body);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ url: `http://127.0.0.1/${filename}`, headers: {} }));
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
// Once an answer is sent: the CPU time this process has used since it started (microseconds), for the
// benchmark's CPU column (a busy machine changes it much less than the wall time).
server.on('request', (request, response) => response.once('finish', () => console.log(JSON.stringify({ cpu: process.cpuUsage() }))));
