import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalS3 } from '@upbeam/local-s3';

/** A running stand-in for STS. */
export interface LocalSts {
  /** `http://127.0.0.1:{port}`: the value of `S3_UPLOAD_STS_ENDPOINT`. */
  endpoint: string;
  close(): Promise<void>;
}

const NAMESPACE = 'https://sts.amazonaws.com/doc/2011-06-15/';

function readForm(req: NodeJS.ReadableStream): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => {
      text += part;
      // STS requests are a few KiB (a session policy is at most 2048 characters).
      if (text.length > 64 * 1024) reject(new Error('STS request too large'));
    });
    req.on('end', () => resolve(new URLSearchParams(text)));
    req.on('error', reject);
  });
}

/**
 * The embedded storage (s3rver) has no STS. This answers the two calls the temporary-token strategy makes,
 * `GetFederationToken` and `AssumeRole` (AWS Query protocol: a form POST, an XML answer), with a fresh key
 * pair registered in s3rver by `@upbeam/local-s3`, so that the route's handler talks to it exactly as to a
 * real STS, through `S3_UPLOAD_STS_ENDPOINT`. It checks no signature and enforces no session policy: it is
 * for the local demo only (the one-key policy is proven against Ceph radosgw in the repository's tests).
 */
export async function startLocalSts(storage: Pick<LocalS3, 'stsClient'>): Promise<LocalSts> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const form = await readForm(req);
      const action = form.get('Action');
      if (req.method !== 'POST' || (action !== 'GetFederationToken' && action !== 'AssumeRole')) {
        res.writeHead(400, { 'content-type': 'text/xml' });
        res.end(
          `<ErrorResponse xmlns="${NAMESPACE}"><Error><Type>Sender</Type><Code>InvalidAction</Code>` +
            `<Message>The local STS stand-in answers GetFederationToken and AssumeRole only.</Message></Error></ErrorResponse>`,
        );
        return;
      }
      const { Credentials: c } = await storage.stsClient.send(undefined);
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(
        `<${action}Response xmlns="${NAMESPACE}"><${action}Result><Credentials>` +
          `<AccessKeyId>${c.AccessKeyId}</AccessKeyId><SecretAccessKey>${c.SecretAccessKey}</SecretAccessKey>` +
          `<SessionToken>${c.SessionToken}</SessionToken><Expiration>${c.Expiration.toISOString()}</Expiration>` +
          `</Credentials></${action}Result><ResponseMetadata><RequestId>local</RequestId></ResponseMetadata></${action}Response>`,
      );
    })().catch((error: unknown) => {
      console.error('[local-sts]', error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
