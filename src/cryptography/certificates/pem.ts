/**
 * PEM armour (RFC 7468, and RFC 1421 headers for OpenSSL's legacy encrypted keys) found in any
 * text: a file of its own or a certificate pasted into source code or configuration, including
 * a string literal that writes its line breaks as `\n`. The armour lines are found with plain
 * substring search; the body is checked character by character against the base64 alphabet and
 * decoded by Buffer, never matched with a regular expression. Linear in the text's length, also
 * for hostile input (a file of BEGIN lines without an END stops at the first search).
 */

const BEGIN = '-----BEGIN ';
const END = '-----END ';
const DASHES = '-----';
const MAX_LABEL = 64;

export interface PemBlock {
  /** CERTIFICATE, PRIVATE KEY, RSA PRIVATE KEY, ... */
  label: string;
  /** 1-based line of the BEGIN armour. */
  line: number;
  /** RFC 1421 headers (`Proc-Type: 4,ENCRYPTED`), as written. */
  headers: string[];
  /** The decoded body; undefined when it is not base64. */
  bytes: Buffer | undefined;
}

export interface PemScan {
  blocks: PemBlock[];
  problems: string[];
}

/** Counts lines forward through the text; offsets must not go back. */
class LineCounter {
  private offset = 0;
  private line = 1;
  constructor(private readonly text: string) {}

  lineAt(target: number): number {
    let next = this.text.indexOf('\n', this.offset);
    while (next !== -1 && next < target) {
      this.line++;
      next = this.text.indexOf('\n', next + 1);
    }
    this.offset = target;
    return this.line;
  }
}

function isLabel(label: string): boolean {
  for (let index = 0; index < label.length; index++) {
    const code = label.charCodeAt(index);
    const ok =
      (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 32 || code === 35;
    if (!ok) return false;
  }
  return label.length > 0;
}

const BASE64 = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=') {
  BASE64[char.charCodeAt(0)] = 1;
}

function isBase64(text: string): boolean {
  let padding = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 128 || BASE64[code] !== 1) return false;
    if (code === 61) padding = true;
    else if (padding) return false;
  }
  return text.length > 0;
}

/** Headers up to the first empty line, when the first line is one (it has a colon). */
function splitHeaders(lines: string[]): { headers: string[]; content: string[] } {
  const first = lines.findIndex((line) => line.length > 0);
  if (first === -1 || !lines[first]?.includes(':')) return { headers: [], content: lines };
  const blank = lines.indexOf('', first);
  const end = blank === -1 ? lines.length : blank;
  return { headers: lines.slice(first, end), content: lines.slice(end) };
}

function decodeBody(body: string): Pick<PemBlock, 'headers' | 'bytes'> {
  // A PEM written into a string literal: `\n` (and `\r`) stand for the line breaks.
  const unescaped = body.includes('\\n')
    ? body.replaceAll('\\r', '').replaceAll('\\n', '\n')
    : body;
  const lines = unescaped.split('\n').map((line) => line.trim());
  const { headers, content } = splitHeaders(lines);
  const base64 = content.join('');
  return { headers, bytes: isBase64(base64) ? Buffer.from(base64, 'base64') : undefined };
}

/** The label between `start` and the next dashes, when it is one. */
function labelAt(text: string, start: number): { label: string; end: number } | undefined {
  const end = text.indexOf(DASHES, start);
  if (end === -1 || end - start > MAX_LABEL) return undefined;
  const label = text.slice(start, end);
  return isLabel(label) ? { label, end: end + DASHES.length } : undefined;
}

/**
 * Every armoured block with a `wanted` label, at most `maxBlocks`; unterminated or mismatched
 * ones are problems. Other labels (PGP, CRLs, requests) are passed over without a word.
 */
export function findPemBlocks(
  text: string,
  maxBlocks: number,
  wanted: (label: string) => boolean,
): PemScan {
  const blocks: PemBlock[] = [];
  const problems: string[] = [];
  const lines = new LineCounter(text);
  let position = 0;
  let nextEnd = -1;
  while (blocks.length < maxBlocks) {
    const begin = text.indexOf(BEGIN, position);
    if (begin === -1) break;
    const head = labelAt(text, begin + BEGIN.length);
    if (!head || !wanted(head.label)) {
      position = begin + BEGIN.length;
      continue;
    }
    if (nextEnd < head.end) nextEnd = text.indexOf(END, head.end);
    const line = lines.lineAt(begin);
    if (nextEnd === -1) {
      problems.push(`line ${line}: ${head.label} block has no END line`);
      break;
    }
    const nextBegin = text.indexOf(BEGIN, head.end);
    if (nextBegin !== -1 && nextBegin < nextEnd) {
      problems.push(`line ${line}: ${head.label} block has no END line`);
      position = nextBegin;
      continue;
    }
    const tail = labelAt(text, nextEnd + END.length);
    position = tail ? tail.end : nextEnd + END.length;
    if (tail?.label !== head.label) {
      problems.push(`line ${line}: ${head.label} block ends with a different label`);
      continue;
    }
    blocks.push({ label: head.label, line, ...decodeBody(text.slice(head.end, nextEnd)) });
  }
  if (blocks.length === maxBlocks && text.indexOf(BEGIN, position) !== -1) {
    problems.push(`more than ${maxBlocks} PEM blocks; the rest were not read`);
  }
  return { blocks, problems };
}
