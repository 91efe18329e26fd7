// Reading what the console hands out as files, with nothing but Node:
// CSV (RFC 4180, as export/csv.go writes it) and ZIP (the central
// directory, as Go's archive/zip writes it). console.mjs opens its
// downloads with these, as a spreadsheet or an unzip would.
import { inflateRawSync } from 'node:zlib';

// parseCSV reads RFC 4180 text (quoted fields may hold commas, quotes
// doubled, and line breaks; records end in CRLF or LF) into rows of cells.
export function parseCSV(text) {
  const rows = [];
  let row = [], cell = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; }
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(cell); cell = ''; }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell); rows.push(row); row = []; cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

// readCSV decodes a downloaded CSV: it must start with the UTF-8 byte order
// mark and be valid UTF-8 (a malformed byte throws). It returns the header
// and the records as objects keyed by it.
export function readCSV(bytes) {
  const bom = bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  const [header, ...records] = parseCSV(bom ? text.slice(1) : text);
  return { bom, header, records: records.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))) };
}

// readZip lists a ZIP's entries from its central directory and inflates
// each: [{ name, data }].
export function readZip(buf) {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error('not a ZIP: no end of central directory');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error('ZIP central directory entry ' + n + ' is damaged');
    const method = buf.readUInt16LE(at + 10), size = buf.readUInt32LE(at + 20);
    const nameLen = buf.readUInt16LE(at + 28), extraLen = buf.readUInt16LE(at + 30), commentLen = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.subarray(at + 46, at + 46 + nameLen).toString('utf8');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + size);
    entries.push({ name, data: method === 8 ? inflateRawSync(raw) : method === 0 ? raw : null });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}
