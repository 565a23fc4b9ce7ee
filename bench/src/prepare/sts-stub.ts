/**
 * A local stand-in for STS, for the preparation benchmark: answers GetFederationToken and AssumeRole
 * (AWS Query protocol, form-encoded POST) at once with fixed-shape credentials, as fast as node:http
 * can, so that the benchmark measures the handlers and their STS clients, not an STS service.
 * Prints `{"port":N}` when listening on 127.0.0.1.
 */
import '../lib/loopback-guard';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

let served = 0;

function credentialsXml(): string {
  const expiration = new Date(Date.now() + 3600_000).toISOString();
  return (
    `<Credentials><AccessKeyId>ASIA${randomBytes(8).toString('hex').toUpperCase()}</AccessKeyId>` +
    `<SecretAccessKey>${randomBytes(30).toString('base64')}</SecretAccessKey>` +
    `<SessionToken>${randomBytes(180).toString('base64')}</SessionToken>` +
    `<Expiration>${expiration}</Expiration></Credentials>`
  );
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const action = form.get('Action');
    if (request.url === '/__served') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ served }));
      return;
    }
    served += 1;
    const id = randomBytes(16).toString('hex');
    let result: string;
    if (action === 'AssumeRole') {
      result =
        `<AssumeRoleResult>${credentialsXml()}<AssumedRoleUser><AssumedRoleId>AROA:${form.get('RoleSessionName')}</AssumedRoleId>` +
        `<Arn>arn:aws:sts::123456789012:assumed-role/upload/${form.get('RoleSessionName')}</Arn></AssumedRoleUser>` +
        `<PackedPolicySize>6</PackedPolicySize></AssumeRoleResult>`;
    } else if (action === 'GetFederationToken') {
      result =
        `<GetFederationTokenResult>${credentialsXml()}<FederatedUser><FederatedUserId>123456789012:${form.get('Name')}</FederatedUserId>` +
        `<Arn>arn:aws:sts::123456789012:federated-user/${form.get('Name')}</Arn></FederatedUser>` +
        `<PackedPolicySize>6</PackedPolicySize></GetFederationTokenResult>`;
    } else {
      response.writeHead(400, { 'content-type': 'text/xml' }).end('<ErrorResponse><Error><Code>InvalidAction</Code></Error></ErrorResponse>');
      return;
    }
    const name = action === 'AssumeRole' ? 'AssumeRoleResponse' : 'GetFederationTokenResponse';
    response
      .writeHead(200, { 'content-type': 'text/xml', 'x-amzn-requestid': id })
      .end(
        `<${name} xmlns="https://sts.amazonaws.com/doc/2011-06-15/">${result}` +
          `<ResponseMetadata><RequestId>${id}</RequestId></ResponseMetadata></${name}>`,
      );
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
