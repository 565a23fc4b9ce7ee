import { describe, expect, it } from 'vitest';
import { isAllowed, MalformedPolicyError, parsePolicy, type PolicyRequest } from './session-policy';

const policy = (...Statement: object[]) => parsePolicy(JSON.stringify({ Version: '2012-10-17', Statement }));
const request = (action: string, resource: string, context: Record<string, string> = {}): PolicyRequest => ({
  action,
  resource,
  context: new Map(Object.entries(context).map(([key, value]) => [key.toLowerCase(), [value]])),
});
const allow = (extra: object = {}) => ({ Effect: 'Allow', Action: 's3:PutObject', Resource: 'arn:aws:s3:::b/k', ...extra });

describe('isAllowed', () => {
  it('allows what an Allow statement names, nothing else (implicit deny)', () => {
    const p = policy(allow());
    expect(isAllowed(p, [request('s3:PutObject', 'arn:aws:s3:::b/k')])).toBe(true);
    expect(isAllowed(p, [request('s3:putobject', 'arn:aws:s3:::b/k')])).toBe(true);
    expect(isAllowed(p, [request('s3:PutObject', 'arn:aws:s3:::b/k2')])).toBe(false);
    expect(isAllowed(p, [request('s3:GetObject', 'arn:aws:s3:::b/k')])).toBe(false);
    expect(isAllowed(p, [request('s3:PutObject', 'arn:aws:s3:::b/k'), request('s3:GetObject', 'arn:aws:s3:::b/src')])).toBe(false);
    expect(isAllowed(policy(), [request('s3:PutObject', 'arn:aws:s3:::b/k')])).toBe(false);
  });

  it('matches wildcards as IAM does; ${*} ${?} ${$} stand for themselves', () => {
    const p = policy(allow({ Action: 's3:Put*', Resource: 'arn:aws:s3:::b/users/?/*' }));
    expect(isAllowed(p, [request('s3:PutObjectTagging', 'arn:aws:s3:::b/users/a/x/y')])).toBe(true);
    expect(isAllowed(p, [request('s3:PutObject', 'arn:aws:s3:::b/users/ab/x')])).toBe(false);
    const literal = policy(allow({ Resource: 'arn:aws:s3:::b/a${*}b${?}${$}' }));
    expect(isAllowed(literal, [request('s3:PutObject', 'arn:aws:s3:::b/a*b?$')])).toBe(true);
    expect(isAllowed(literal, [request('s3:PutObject', 'arn:aws:s3:::b/axxb?$')])).toBe(false);
    expect(isAllowed(policy(allow({ NotResource: 'arn:aws:s3:::b/k', Resource: undefined })), [request('s3:PutObject', 'arn:aws:s3:::b/other')])).toBe(true);
  });

  it('an explicit Deny wins; conditions as the upload token policy writes them', () => {
    const p = policy(
      allow(),
      { Effect: 'Deny', Action: ['s3:PutObject'], Resource: ['*'], Condition: { StringEquals: { 's3:x-amz-acl': ['public-read', 'authenticated-read'] } } },
      { Effect: 'Deny', Action: ['s3:PutObject'], Resource: ['*'], Condition: { StringLike: { 's3:object-lock-mode': '*' } } },
    );
    const put = (context: Record<string, string>) => isAllowed(p, [request('s3:PutObject', 'arn:aws:s3:::b/k', context)]);
    expect(put({})).toBe(true);
    expect(put({ 's3:x-amz-acl': 'private' })).toBe(true);
    expect(put({ 's3:x-amz-acl': 'public-read' })).toBe(false);
    expect(put({ 's3:object-lock-mode': 'GOVERNANCE' })).toBe(false);
  });

  it('absent keys: false for a positive operator, true for a negated one, ...IfExists and Null true', () => {
    const on = (Condition: object) => (context: Record<string, string>) => isAllowed(policy(allow({ Condition })), [request('s3:PutObject', 'arn:aws:s3:::b/k', context)]);
    expect(on({ StringEquals: { 's3:x-amz-acl': 'private' } })({})).toBe(false);
    expect(on({ StringNotEquals: { 's3:x-amz-acl': 'public-read' } })({})).toBe(true);
    expect(on({ StringNotEquals: { 's3:x-amz-acl': 'public-read' } })({ 's3:x-amz-acl': 'public-read' })).toBe(false);
    expect(on({ StringEqualsIfExists: { 's3:x-amz-acl': 'private' } })({})).toBe(true);
    expect(on({ Null: { 's3:x-amz-acl': 'true' } })({})).toBe(true);
    expect(on({ Null: { 's3:x-amz-acl': 'true' } })({ 's3:x-amz-acl': 'private' })).toBe(false);
    expect(on({ NumericLessThanEquals: { 's3:max-keys': '10' } })({ 's3:max-keys': '5' })).toBe(true);
    expect(on({ DateLessThan: { 'aws:CurrentTime': '2000-01-01T00:00:00Z' } })({ 'aws:CurrentTime': new Date().toISOString() })).toBe(false);
    expect(on({ Bool: { 'aws:SecureTransport': 'false' } })({ 'aws:SecureTransport': 'false' })).toBe(true);
  });

  it('fails closed on what it cannot evaluate: an Allow never matches, a Deny always does', () => {
    const unknownOperator = { IpAddress: { 'aws:SourceIp': '10.0.0.0/8' } };
    const put = request('s3:PutObject', 'arn:aws:s3:::b/k', { 'aws:SourceIp': '127.0.0.1' });
    expect(isAllowed(policy(allow({ Condition: unknownOperator })), [put])).toBe(false);
    expect(isAllowed(policy(allow(), { Effect: 'Deny', Action: '*', Resource: '*', Condition: unknownOperator }), [put])).toBe(false);
    expect(isAllowed(policy(allow({ Resource: 'arn:aws:s3:::b/${aws:username}' })), [put])).toBe(false);
    expect(isAllowed(policy(allow(), { Effect: 'Deny', Action: '*', Resource: 'arn:aws:s3:::b/${aws:username}' }), [put])).toBe(false);
  });
});

describe('parsePolicy', () => {
  it('refuses text that is not a policy', () => {
    for (const text of ['not json', '{}', '{"Statement":[{"Effect":"Maybe","Action":"*","Resource":"*"}]}', '{"Statement":[{"Effect":"Allow","Resource":"*"}]}']) {
      expect(() => parsePolicy(text)).toThrow(MalformedPolicyError);
    }
  });
});
