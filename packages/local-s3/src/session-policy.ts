/**
 * A small IAM policy evaluator for the session policies of the STS stand-in's credentials (sts.ts): the
 * subset that session policies for uploads use, evaluated as IAM does. A request is allowed when some
 * `Allow` statement matches it and no `Deny` statement does (an explicit Deny wins; nothing matching is an
 * implicit deny).
 *
 * Supported: `Effect`, `Action` / `NotAction` (`*` and `?` wildcards, case-insensitive), `Resource` /
 * `NotResource` (ARNs with `*` and `?` wildcards; `${*}`, `${?}`, `${$}` stand for those characters), and
 * `Condition` with the operators `String(Not)Equals(IgnoreCase)`, `String(Not)Like`, `Numeric*`, `Date*`,
 * `Bool` and `Null`, each with an `...IfExists` form. What it cannot evaluate (another operator such as
 * `IpAddress` or `ForAnyValue:`, another policy variable such as `${aws:username}`) fails closed: an Allow
 * statement holding it never matches, and a Deny statement holding it always does.
 */

/** One request as IAM sees it: an action on a resource, with its condition keys. */
export interface PolicyRequest {
  /** e.g. `s3:PutObject`. */
  action: string;
  /** e.g. `arn:aws:s3:::bucket/key`, or `*` for an action on no resource (ListAllMyBuckets). */
  resource: string;
  /** Condition keys present in the request (names lower-case, e.g. `s3:x-amz-acl`), each with its values. */
  context: ReadonlyMap<string, readonly string[]>;
}

/** A parsed session policy; see {@link parsePolicy}. */
export interface Policy {
  statements: Statement[];
}

interface Statement {
  effect: 'Allow' | 'Deny';
  action?: string[];
  notAction?: string[];
  resource?: string[];
  notResource?: string[];
  condition: Record<string, Record<string, string[]>>;
}

/** A policy document that is not an IAM policy (STS answers `MalformedPolicyDocument`). */
export class MalformedPolicyError extends Error {
  override name = 'MalformedPolicyError';
}

/** `true`, `false`, or `undefined` when this evaluator cannot tell (see the module comment). */
type Match = boolean | undefined;

const list = (value: unknown, field: string): string[] | undefined => {
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  if (values.length === 0 || !values.every((v) => typeof v === 'string')) {
    throw new MalformedPolicyError(`${field} must be a string or a non-empty list of strings.`);
  }
  return values as string[];
};

/**
 * Parses a policy document (JSON text, version 2012-10-17).
 * @throws {@link MalformedPolicyError} for text that is not JSON or not a policy (no `Statement`, an
 *   `Effect` other than Allow/Deny, a statement without `Action`/`NotAction` or `Resource`/`NotResource`).
 */
export function parsePolicy(text: string): Policy {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new MalformedPolicyError('The policy is not valid JSON.');
  }
  if (typeof document !== 'object' || document === null || !('Statement' in document)) {
    throw new MalformedPolicyError('The policy has no Statement.');
  }
  const raw = (document as { Statement: unknown }).Statement;
  const statements = (Array.isArray(raw) ? raw : [raw]).map((s: Record<string, unknown>, i): Statement => {
    if (typeof s !== 'object' || s === null) throw new MalformedPolicyError(`Statement ${i} is not an object.`);
    if (s.Effect !== 'Allow' && s.Effect !== 'Deny') throw new MalformedPolicyError(`Statement ${i}: Effect must be Allow or Deny.`);
    const statement: Statement = {
      effect: s.Effect,
      action: list(s.Action, 'Action'),
      notAction: list(s.NotAction, 'NotAction'),
      resource: list(s.Resource, 'Resource'),
      notResource: list(s.NotResource, 'NotResource'),
      condition: {},
    };
    if (!statement.action === !statement.notAction) throw new MalformedPolicyError(`Statement ${i} needs Action or NotAction.`);
    if (!statement.resource === !statement.notResource) throw new MalformedPolicyError(`Statement ${i} needs Resource or NotResource.`);
    const condition = s.Condition ?? {};
    if (typeof condition !== 'object' || condition === null) throw new MalformedPolicyError(`Statement ${i}: Condition must be an object.`);
    for (const [operator, keys] of Object.entries(condition)) {
      if (typeof keys !== 'object' || keys === null) throw new MalformedPolicyError(`Statement ${i}: Condition ${operator} must be an object.`);
      statement.condition[operator] = Object.fromEntries(
        Object.entries(keys).map(([key, value]) => [key.toLowerCase(), (Array.isArray(value) ? value : [value]).map(String)]),
      );
    }
    return statement;
  });
  return { statements };
}

/** True when every request of `requests` is allowed by `policy` (see the module comment). */
export function isAllowed(policy: Policy, requests: readonly PolicyRequest[]): boolean {
  return requests.every((request) => {
    const matching = (effect: Statement['effect']) => policy.statements.filter((s) => s.effect === effect);
    // A statement this evaluator cannot judge fails closed: a Deny holds, an Allow does not.
    if (matching('Deny').some((s) => statementMatches(s, request) !== false)) return false;
    return matching('Allow').some((s) => statementMatches(s, request) === true);
  });
}

function statementMatches(s: Statement, request: PolicyRequest): Match {
  const action = s.action ? anyOf(s.action, (p) => wildcard(p, request.action, true)) : not(anyOf(s.notAction!, (p) => wildcard(p, request.action, true)));
  const resource = s.resource ? anyOf(s.resource, (p) => wildcard(p, request.resource, false)) : not(anyOf(s.notResource!, (p) => wildcard(p, request.resource, false)));
  return all([action, resource, ...Object.entries(s.condition).map(([operator, keys]) => conditionHolds(operator, keys, request.context))]);
}

const not = (m: Match): Match => (m === undefined ? undefined : !m);

/** True if any is true; else undefined if any is undefined; else false. */
function anyOf<T>(items: readonly T[], test: (item: T) => Match): Match {
  let unknown = false;
  for (const item of items) {
    const m = test(item);
    if (m === true) return true;
    if (m === undefined) unknown = true;
  }
  return unknown ? undefined : false;
}

/** False if any is false; else undefined if any is undefined; else true. */
function all(matches: readonly Match[]): Match {
  if (matches.includes(false)) return false;
  return matches.includes(undefined) ? undefined : true;
}

/**
 * IAM's wildcard match: `*` any run of characters, `?` one character; `${*}`, `${?}`, `${$}` the character
 * itself; any other `${...}` (a policy variable) cannot be evaluated here (undefined).
 */
function wildcard(pattern: string, value: string, ignoreCase: boolean): Match {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i]!;
    if (char === '$' && pattern[i + 1] === '{') {
      const end = pattern.indexOf('}', i);
      const inner = end === -1 ? undefined : pattern.slice(i + 2, end);
      if (inner !== '*' && inner !== '?' && inner !== '$') return undefined;
      source += `\\${inner}`;
      i = end;
    } else if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, ignoreCase ? 'si' : 's').test(value);
}

type Compare = (requestValue: string, policyValue: string) => Match;

const number = (text: string) => (text.trim() === '' ? NaN : Number(text));
const date = (text: string) => (/^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text));
const numeric = (test: (a: number, b: number) => boolean, parse: (text: string) => number): Compare => (a, b) => {
  const [x, y] = [parse(a), parse(b)];
  return Number.isNaN(x) || Number.isNaN(y) ? false : test(x, y);
};

/** The operators evaluated, positive form: a negated one (`...Not...`) is true when no value matches. */
const OPERATORS: Record<string, { compare: Compare; negated: boolean }> = {
  StringEquals: { compare: (a, b) => a === b, negated: false },
  StringNotEquals: { compare: (a, b) => a === b, negated: true },
  StringEqualsIgnoreCase: { compare: (a, b) => a.toLowerCase() === b.toLowerCase(), negated: false },
  StringNotEqualsIgnoreCase: { compare: (a, b) => a.toLowerCase() === b.toLowerCase(), negated: true },
  StringLike: { compare: (a, b) => wildcard(b, a, false), negated: false },
  StringNotLike: { compare: (a, b) => wildcard(b, a, false), negated: true },
  NumericEquals: { compare: numeric((a, b) => a === b, number), negated: false },
  NumericNotEquals: { compare: numeric((a, b) => a === b, number), negated: true },
  NumericLessThan: { compare: numeric((a, b) => a < b, number), negated: false },
  NumericLessThanEquals: { compare: numeric((a, b) => a <= b, number), negated: false },
  NumericGreaterThan: { compare: numeric((a, b) => a > b, number), negated: false },
  NumericGreaterThanEquals: { compare: numeric((a, b) => a >= b, number), negated: false },
  DateEquals: { compare: numeric((a, b) => a === b, date), negated: false },
  DateNotEquals: { compare: numeric((a, b) => a === b, date), negated: true },
  DateLessThan: { compare: numeric((a, b) => a < b, date), negated: false },
  DateLessThanEquals: { compare: numeric((a, b) => a <= b, date), negated: false },
  DateGreaterThan: { compare: numeric((a, b) => a > b, date), negated: false },
  DateGreaterThanEquals: { compare: numeric((a, b) => a >= b, date), negated: false },
  Bool: { compare: (a, b) => a.toLowerCase() === b.toLowerCase(), negated: false },
};

/**
 * One condition operator with its keys (all must hold). A key absent from the request: false for a
 * positive operator, true for a negated one and for `...IfExists`; `Null: true` holds when it is absent.
 */
function conditionHolds(operator: string, keys: Record<string, string[]>, context: PolicyRequest['context']): Match {
  if (operator === 'Null') {
    return all(Object.entries(keys).map(([key, [expected]]) => (expected === 'true') === !context.has(key)));
  }
  const ifExists = operator.endsWith('IfExists');
  const known = OPERATORS[ifExists ? operator.slice(0, -'IfExists'.length) : operator];
  if (!known) return undefined;
  return all(
    Object.entries(keys).map(([key, policyValues]): Match => {
      const requestValues = context.get(key);
      if (requestValues === undefined) return ifExists || known.negated;
      // A request key holds one value here; any of the policy's values may match it.
      const matched = anyOf(requestValues, (value) => anyOf(policyValues, (policyValue) => known.compare(value, policyValue)));
      return known.negated ? not(matched) : matched;
    }),
  );
}
