// app/api/object-url/route.ts: a signed GET URL of one of the signed-in user's own uploads (private bucket)
import { createObjectAccess, isKeyUnder } from '@upbeam/upload-server';
import { userPrefix } from '../../user-uploads';

const objects = createObjectAccess(); // the S3_UPLOAD_* variables, as the handler

export async function GET(request: Request) {
  const user = await getUser(request);
  if (!user) return Response.json({ error: 'Sign in first.' }, { status: 401 });
  const key = new URL(request.url).searchParams.get('key');
  // Not key.startsWith(prefix): 'uploads/42/../7/x' starts with 'uploads/42/'. isKeyUnder refuses a '..'.
  if (!isKeyUnder(key, userPrefix(user.id))) return Response.json({ error: 'No such upload.' }, { status: 404 });
  const url = await objects.signedGetUrl(key, { expiresIn: 300 }); // 5 minutes; contentDisposition too
  return Response.json({ url });
}
