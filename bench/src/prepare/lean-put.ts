/**
 * Bench only: a PutObject without the AWS SDK, to tell what a record's write costs in transport alone: SigV4
 * header signing with node:crypto (the signing key kept for the day) and node:http on a keep-alive agent,
 * path-style. Keys must be made of unreserved characters and `/` (no encoding is done).
 */
import { createHash, createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';

export interface LeanPutSettings {
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  region: string;
  endpoint: string;
}

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A function that PUTs `body` at `key`, resolving once storage answered 200 (rejecting otherwise). */
export function createLeanPut(settings: LeanPutSettings): (key: string, body: string) => Promise<void> {
  const endpoint = new URL(settings.endpoint);
  const agent = new Agent({ keepAlive: true, maxSockets: 50 });
  let signingKey: { day: string; key: Buffer } | undefined;
  const keyOf = (day: string) => {
    if (signingKey?.day !== day) {
      const dated = hmac(`AWS4${settings.secretAccessKey}`, day);
      signingKey = { day, key: hmac(hmac(hmac(dated, settings.region), 's3'), 'aws4_request') };
    }
    return signingKey.key;
  };
  return (key, body) => {
    const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
    const day = amzDate.slice(0, 8);
    const path = `/${settings.bucket}/${key}`;
    const payloadHash = sha256(body);
    const signedHeaders = 'content-type;host;x-amz-content-sha256;x-amz-date';
    const canonical = `PUT\n${path}\n\ncontent-type:text/plain\nhost:${endpoint.host}\nx-amz-content-sha256:${payloadHash}\nx-amz-date:${amzDate}\n\n${signedHeaders}\n${payloadHash}`;
    const scope = `${day}/${settings.region}/s3/aws4_request`;
    const signature = createHmac('sha256', keyOf(day)).update(`AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${sha256(canonical)}`).digest('hex');
    return new Promise((resolve, reject) => {
      const sent = request(
        {
          host: endpoint.hostname,
          port: endpoint.port,
          method: 'PUT',
          path,
          agent,
          headers: {
            'content-type': 'text/plain',
            'content-length': Buffer.byteLength(body),
            'x-amz-content-sha256': payloadHash,
            'x-amz-date': amzDate,
            authorization: `AWS4-HMAC-SHA256 Credential=${settings.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
          },
        },
        (answer) => {
          answer.resume();
          answer.on('end', () => (answer.statusCode === 200 ? resolve() : reject(new Error(`lean PUT answered ${answer.statusCode}`))));
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
  };
}
