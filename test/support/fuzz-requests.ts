import fc from 'fast-check';

/**
 * Hostile requests generated from the service's own OpenAPI document (docs/http-rules.md, the
 * fuzz suite): every operation, with each path parameter, query parameter and body field in
 * turn replaced by a value a careless handler would choke on. Values are raw fragments of the
 * URL or of the JSON text, so that what JSON.stringify or encodeURIComponent cannot write (a
 * lone surrogate, 1e400, a `__proto__` key, invalid percent-encoding) is sent too.
 */

type Schema = Record<string, unknown>;

export interface FuzzParameter {
  name: string;
  schema: Schema;
  required: boolean;
}

export interface FuzzOperation {
  method: string;
  /** `/api/v1/repositories/{repositoryId}` */
  path: string;
  pathParams: FuzzParameter[];
  queryParams: FuzzParameter[];
  /** The JSON body schema, or null for operations without a JSON body. */
  body: Schema | null;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What was made hostile, for the failure message. */
  note: string;
  /** The target it attacks (FuzzTarget), for counting. */
  operation: string;
  parameter: string;
}

/** Ids the generator may use where a schema wants a uuid: the caller's own, another tenant's. */
export interface FuzzIds {
  uuids: string[];
}

const isRecord = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function resolve(document: Schema, schema: unknown): Schema {
  if (!isRecord(schema)) return {};
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.split('/').pop() ?? '';
  const components = isRecord(document.components) ? document.components : {};
  const schemas = isRecord(components.schemas) ? components.schemas : {};
  return resolve(document, schemas[name]);
}

/** Every operation of the document (HEAD and OPTIONS aside: they mirror GET and CORS). */
export function operationsOf(document: Schema): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isRecord(operation) || method === 'head' || method === 'options') continue;
      const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
      const parameter = (where: string) =>
        parameters
          .filter((p): p is Schema => isRecord(p) && p.in === where)
          .map((p) => ({
            name: String(p.name),
            schema: resolve(document, p.schema),
            required: p.required === true,
          }));
      const requestBody = isRecord(operation.requestBody) ? operation.requestBody : null;
      const content = requestBody && isRecord(requestBody.content) ? requestBody.content : null;
      const json =
        content && isRecord(content['application/json']) ? content['application/json'] : null;
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameter('path'),
        queryParams: parameter('query'),
        body: json ? resolve(document, json.schema) : null,
      });
    }
  }
  return operations;
}

const LOOPBACK_URL = 'http://127.0.0.1:9/fuzz.git';

/** A value the schema accepts (the base each mutation starts from); never an outside address. */
export function plausible(document: Schema, raw: unknown, ids: FuzzIds, index = 0): unknown {
  const schema = resolve(document, raw);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    const branch = branches.find((b) => isRecord(b) && resolve(document, b).type !== 'null');
    return branch === undefined ? null : plausible(document, branch, ids, index);
  }
  const type = Array.isArray(schema.type)
    ? schema.type.find((t) => t !== 'null')
    : (schema.type ?? (isRecord(schema.properties) ? 'object' : undefined));
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid') return ids.uuids[index % ids.uuids.length];
      if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
      if (schema.format === 'uri' || schema.format === 'url') return LOOPBACK_URL;
      const min = typeof schema.minLength === 'number' ? schema.minLength : 1;
      return 'fuzz'.padEnd(Math.max(min, 4), 'z');
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 1;
      return Array.from({ length: Math.max(min, 1) }, (_, i) =>
        plausible(document, schema.items, ids, index + i),
      );
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = isRecord(schema.properties) ? schema.properties : {};
      for (const [name, property] of Object.entries(properties)) {
        // Outside URLs only where nothing else names the target: a `url` field gets loopback.
        out[name] = /url$/i.test(name)
          ? LOOPBACK_URL
          : plausible(document, property, ids, index + 1);
      }
      return out;
    }
    default:
      return 'fuzz';
  }
}

function deep(open: string, close: string, depth: number, leaf = '1'): string {
  return `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;
}

/** Hostile strings: storage-breaking text, number-like text, unicode oddities, long text. */
const HOSTILE_TEXT = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\udbffy',
  '\udc00\ud800',
  '',
  ' ',
  '\t\r\n',
  '99999999999999999999999',
  '-99999999999999999999999',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e400',
  '-1',
  '-0',
  '1.5',
  '0x10',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '../../../../etc/passwd',
  "' OR '1'='1' --",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, literally.
  '${jndi:ldap://127.0.0.1:9/a}',
  '<script>alert(1)</script>',
  '\u202eevil\u202c',
  '\ufeffbom',
  '\u200b\u200c\u200d',
  'e\u0301\u0301\u0301',
  'İıſKﬁ',
  'ǅǈǋ',
  '𝕏𝔂😀👩‍👩‍👧‍👦',
  '\uffff\ufffe',
  '01900000-0000-7000-8000-00000000000g',
  '01900000-0000-7000-8000-0000000000000',
  '{01900000-0000-7000-8000-000000000000}',
  '01900000000070008000000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(300),
  'y'.repeat(70_000),
  'npm:@scope/name@1.0.0',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  'ssh://git@127.0.0.1:9/x.git',
];

const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
);

/** Percent-encodes every UTF-16 unit, lone surrogates as the (invalid) bytes CESU-8 would use. */
export function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

/** Raw URL fragments: invalid percent-encoding and encoded NUL reach the router as is. */
const RAW_URL_JUNK = [
  '%00',
  'a%00b',
  '%C0%80',
  '%ED%A0%80',
  '%FF%FE',
  '%E0%A4%A',
  '%',
  '%%',
  '%zz',
  '..%2F..%2F',
  '%2e%2e',
  '%252e',
  '%0d%0aX-Injected:%201',
];

export const hostileUrlPart: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...RAW_URL_JUNK) },
  { weight: 3, arbitrary: hostileText.map(percentEncode) },
);

/** Raw JSON fragments: values JSON.stringify could not write are sent as text. */
const RAW_JSON = [
  '1e400',
  '-1e400',
  '99999999999999999999999',
  '1e308',
  '-1',
  '-0',
  '0.5',
  '9007199254740993',
  'true',
  'false',
  'null',
  '[]',
  '{}',
  '[null]',
  '[[],[[]]]',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '"\\u0000"',
  '"\\ud800"',
  '"a\\udfffb"',
  deep('[', ']', 200),
  deep('{"a":', '}', 200),
  deep('[', ']', 3000),
];

export const hostileJson: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...RAW_JSON) },
  { weight: 3, arbitrary: hostileText.map((text) => JSON.stringify(text)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
);

const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '\u0000',
  '\ud800',
  '',
  'x'.repeat(500),
];

/** A marker that cannot occur in the plausible body; replaced by the raw fragment after stringify. */
const MARK = '\u0001FUZZ\u0001';

/** Paths of every value in `value` (the root is []). */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push(...pathsOf(v, [...prefix, i]));
  } else if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  }
  return out;
}

function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value) && typeof head === 'number') {
    return value.map((v, i) => (i === head ? replaceAt(v, rest, replacement) : v));
  }
  if (isRecord(value) && head !== undefined) {
    return { ...value, [head]: replaceAt(value[head], rest, replacement) };
  }
  return value;
}

function bodyText(base: unknown, path: (string | number)[], fragment: string): string {
  const text = JSON.stringify(replaceAt(base, path, MARK));
  return text.replace(JSON.stringify(MARK), fragment);
}

const BODY_JUNK = ['', '{', '{"a":1,}', 'nul', '\u0000', '[1,2', '"unterminated', '{"a":1}{"b":2}'];

function fillPath(operation: FuzzOperation, values: Record<string, string>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? 'x');
}

/**
 * One thing an operation lets a caller choose (a path or query parameter, a body field, a body
 * key, the body text), with the hostile requests that attack it.
 */
export interface FuzzTarget {
  /** `GET /api/v1/repositories/{repositoryId}` */
  operation: string;
  /** `path:<name>`, `query:<name>`, `query:(undeclared)`, `body:<a.0.b>`, `body:(key)`, `body:(text)` */
  parameter: string;
  requests: fc.Arbitrary<FuzzRequest>;
}

/** Every target of `operation`, each with hostile values for it and plausible ones elsewhere. */
export function targetsOf(
  document: Schema,
  operation: FuzzOperation,
  ids: FuzzIds,
  token: string,
): FuzzTarget[] {
  const name = `${operation.method} ${operation.path}`;
  const headers = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${token}`,
    ...extra,
  });
  const pathValues = Object.fromEntries(
    operation.pathParams.map((p, i) => [
      p.name,
      percentEncode(String(plausible(document, p.schema, ids, i))),
    ]),
  );
  // Operations that read a raw body (webhooks) declare none; they get hostile bodies too.
  const takesBody = ['POST', 'PUT', 'PATCH'].includes(operation.method);
  const base = operation.body
    ? plausible(document, operation.body, ids)
    : takesBody
      ? {}
      : undefined;
  const basePayload = base === undefined ? undefined : JSON.stringify(base);
  const jsonHeaders: Record<string, string> =
    basePayload === undefined ? {} : { 'content-type': 'application/json' };
  const uuidChoice = fc.constantFrom(...ids.uuids);
  type Made = Omit<FuzzRequest, 'method' | 'operation' | 'parameter'>;
  const target = (parameter: string, requests: fc.Arbitrary<Made>): FuzzTarget => ({
    operation: name,
    parameter,
    requests: requests.map((request) => ({
      ...request,
      method: operation.method,
      operation: name,
      parameter,
    })),
  });
  const targets: FuzzTarget[] = [];
  for (const attacked of operation.pathParams) {
    // The attacked parameter hostile (or another tenant's id); the others plausible or any id.
    const values = fc.record(
      Object.fromEntries(
        operation.pathParams.map((p) => [
          p.name,
          p.name === attacked.name
            ? fc.oneof({ weight: 3, arbitrary: hostileUrlPart }, uuidChoice)
            : fc.oneof(uuidChoice, fc.constant(pathValues[p.name] ?? 'x')),
        ]),
      ),
    );
    targets.push(
      target(
        `path:${attacked.name}`,
        values.map((chosen) => ({
          url: fillPath(operation, chosen),
          headers: headers(jsonHeaders),
          payload: basePayload,
          note: `path ${JSON.stringify(chosen).slice(0, 120)}`,
        })),
      ),
    );
  }
  const query = (parameter: string, names: fc.Arbitrary<string>) =>
    target(
      parameter,
      fc.record({ name: names, value: hostileUrlPart, repeat: fc.boolean() }).map((q) => {
        const text = `${q.name}=${q.value}${q.repeat ? `&${q.name}=1` : ''}`;
        return {
          url: `${fillPath(operation, pathValues)}?${text}`,
          headers: headers(jsonHeaders),
          payload: basePayload,
          note: `query ${text.slice(0, 120)}`,
        };
      }),
    );
  for (const p of operation.queryParams)
    targets.push(query(`query:${p.name}`, fc.constant(p.name)));
  if (operation.queryParams.length === 0) {
    targets.push(query('query:(undeclared)', fc.constantFrom('take', '__proto__', 'q')));
  }
  if (base === undefined) return targets;
  const url = fillPath(operation, pathValues);
  // Half of the bodies come with a charset JSON cannot have and an oversized correlation id.
  const bodyHeaders = (odd: boolean) =>
    headers(
      odd
        ? {
            'content-type': 'application/json; charset=utf-16',
            'x-correlation-id': 'x'.repeat(500),
          }
        : { 'content-type': 'application/json' },
    );
  for (const path of pathsOf(base)) {
    const field = path.join('.') || '(root)';
    targets.push(
      target(
        `body:${field}`,
        fc.tuple(hostileJson, fc.boolean()).map(([fragment, odd]) => ({
          url,
          headers: bodyHeaders(odd),
          payload: bodyText(base, path, fragment),
          note: `body ${field} = ${fragment.slice(0, 60)}`,
        })),
      ),
    );
  }
  targets.push(
    target(
      'body:(key)',
      fc
        .tuple(fc.constantFrom(...HOSTILE_KEYS), hostileJson, fc.boolean())
        .map(([key, fragment, odd]) => {
          const text = JSON.stringify(isRecord(base) ? base : {});
          const entry = `${JSON.stringify(key)}:${fragment}`;
          return {
            url,
            headers: bodyHeaders(odd),
            payload: text === '{}' ? `{${entry}}` : `{${entry},${text.slice(1)}`,
            note: `body key ${JSON.stringify(key).slice(0, 40)}`,
          };
        }),
    ),
    target(
      'body:(text)',
      fc.tuple(fc.constantFrom(...BODY_JUNK), fc.boolean()).map(([payload, odd]) => ({
        url,
        headers: bodyHeaders(odd),
        payload,
        note: `body text ${JSON.stringify(payload)}`,
      })),
    ),
  );
  return targets;
}

/**
 * Every target of every operation, interleaved (each operation's first target, then each one's
 * second, ...), so that taking them round-robin reaches every operation within the first pass
 * and every target once the budget is at least their number.
 */
export function fuzzTargets(
  document: Schema,
  ids: FuzzIds,
  token: string,
): { operations: FuzzOperation[]; targets: FuzzTarget[] } {
  const operations = operationsOf(document);
  const perOperation = operations.map((operation) => targetsOf(document, operation, ids, token));
  const targets: FuzzTarget[] = [];
  const longest = Math.max(...perOperation.map((list) => list.length));
  for (let i = 0; i < longest; i++) {
    for (const list of perOperation) {
      const next = list[i];
      if (next) targets.push(next);
    }
  }
  return { operations, targets };
}
