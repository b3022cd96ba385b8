import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ExtractionError } from '../types';
import { lineAt, lineStarts } from './text-lines';

/**
 * The one XML front end of the extractors and registry clients: Maven (pom.xml, maven-metadata)
 * and NuGet (MSBuild files, packages.config). fast-xml-parser runs with entity processing off;
 * DOCTYPE and ENTITY declarations are refused outright, so no internal or external entity is ever
 * expanded; documents above MAX_XML_BYTES and nesting beyond MAX_XML_DEPTH are not parsed.
 */
export interface XmlElement {
  /** Local name (namespace prefix dropped). */
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated, trimmed text content of this element (not of its descendants). */
  text: string;
  /** 1-based line of the opening tag. */
  line: number;
}

export interface XmlParseResult {
  root: XmlElement | null;
  errors: ExtractionError[];
}

const META = XMLParser.getMetaDataSymbol() as unknown as symbol;
/**
 * POMs, project files and packages.config are kilobytes; fast-xml-parser needs about a second
 * per 4 MB, so anything beyond this is refused rather than parsed for minutes.
 */
export const MAX_XML_BYTES = 8 * 1024 * 1024;
/** fast-xml-parser throws beyond this nesting; our walker recurses no deeper either. */
export const MAX_XML_DEPTH = 100;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  allowBooleanAttributes: true,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  captureMetaData: true,
  maxNestedTags: MAX_XML_DEPTH,
});

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five predefined entities and character references; nothing else is expanded. */
export function decodeXmlText(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code =
        ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return PREDEFINED[ref] ?? whole;
  });
}

type RawNode = Record<string | symbol, unknown>;

function localName(tag: string): string {
  const colon = tag.indexOf(':');
  return colon === -1 ? tag : tag.slice(colon + 1);
}

function convert(node: RawNode, tag: string, starts: number[], depth: number): XmlElement {
  const meta = node[META] as { startIndex?: number } | undefined;
  const rawAttrs = (node[':@'] ?? {}) as Record<string, unknown>;
  const attrs: Record<string, string> = {};
  for (const [key, value] of Object.entries(rawAttrs)) {
    attrs[localName(key)] = typeof value === 'string' ? decodeXmlText(value) : '';
  }
  const element: XmlElement = {
    name: localName(tag),
    attrs,
    children: [],
    text: '',
    line: meta?.startIndex !== undefined ? lineAt(starts, meta.startIndex) : 1,
  };
  const content = node[tag];
  if (!Array.isArray(content)) return element;
  const texts: string[] = [];
  for (const child of content as RawNode[]) {
    const childTag = Object.keys(child).find((key) => key !== ':@');
    if (childTag === undefined) continue;
    if (childTag === '#text') {
      texts.push(String(child[childTag] ?? ''));
    } else if (depth < MAX_XML_DEPTH) {
      element.children.push(convert(child, childTag, starts, depth + 1));
    }
  }
  element.text = decodeXmlText(texts.join('')).trim();
  return element;
}

/** The parsed nodes, or the parser's error message. */
function tryParse(text: string): RawNode[] | string {
  try {
    return parser.parse(text) as RawNode[];
  } catch (error) {
    return (error as Error).message;
  }
}

function describeInvalid(err: { code: string; msg: string; line: number }): string {
  const unclosed = /^Invalid '(.*)' found\.$/s.exec(err.msg);
  if (unclosed) {
    try {
      const names = JSON.parse(unclosed[1]!) as string[];
      return `malformed XML: unclosed ${names.map((n) => `<${n}>`).join(', ')} (truncated file?)`;
    } catch {
      // fall through to the parser's own wording
    }
  }
  return `malformed XML at line ${err.line}: ${err.msg}`;
}

/**
 * Parses XML into a plain element tree. Malformed input yields one whole-file error plus whatever
 * the lenient parser could still salvage; DOCTYPE (and so any entity declaration) is refused.
 */
export function parseXml(text: string): XmlParseResult {
  const errors: ExtractionError[] = [];
  if (text.length > MAX_XML_BYTES) {
    return {
      root: null,
      errors: [{ line: null, message: `XML file larger than ${MAX_XML_BYTES} bytes; not parsed` }],
    };
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    return {
      root: null,
      errors: [
        { line: null, message: 'DOCTYPE/ENTITY declarations are not allowed; file not parsed' },
      ],
    };
  }
  const validation = XMLValidator.validate(text);
  if (validation !== true) errors.push({ line: null, message: describeInvalid(validation.err) });
  let parsed = tryParse(text);
  if (typeof parsed === 'string') {
    // Truncated input: the lenient parser copes with unclosed elements but not with a tag cut
    // in half, so retry up to the last complete tag to salvage what precedes it.
    const lastTag = text.lastIndexOf('>');
    const retry = lastTag > 0 ? tryParse(text.slice(0, lastTag + 1)) : parsed;
    if (typeof retry === 'string') {
      if (errors.length === 0) errors.push({ line: null, message: `malformed XML: ${parsed}` });
      return { root: null, errors };
    }
    parsed = retry;
  }
  const nodes = parsed;
  const starts = lineStarts(text);
  for (const node of nodes) {
    const tag = Object.keys(node).find((key) => key !== ':@' && key !== '#text');
    if (tag !== undefined) return { root: convert(node, tag, starts, 1), errors };
  }
  if (errors.length === 0) errors.push({ line: null, message: 'no XML root element' });
  return { root: null, errors };
}

/** First child with the given local name (case-sensitive unless `ignoreCase`). */
export function child(
  element: XmlElement,
  name: string,
  ignoreCase = false,
): XmlElement | undefined {
  if (!ignoreCase) return element.children.find((c) => c.name === name);
  const lower = name.toLowerCase();
  return element.children.find((c) => c.name.toLowerCase() === lower);
}

export function children(element: XmlElement, name: string, ignoreCase = false): XmlElement[] {
  if (!ignoreCase) return element.children.filter((c) => c.name === name);
  const lower = name.toLowerCase();
  return element.children.filter((c) => c.name.toLowerCase() === lower);
}

/** Text of a direct child, or null when absent or empty. */
export function childText(element: XmlElement, name: string, ignoreCase = false): string | null {
  const found = child(element, name, ignoreCase);
  return found && found.text.length > 0 ? found.text : null;
}
