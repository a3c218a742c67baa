/**
 * The records of a CSV file as RFC 4180 writes them (quoted fields may hold commas, quotes and
 * line breaks; records end in CRLF), the byte order mark dropped. A reader of our own, so a test
 * checks the file as another program would read it rather than with the writer's own code.
 */
export function csvRecords(text: string): string[][] {
  const body = text.replace(/^\uFEFF/, '');
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { record.push(field); field = ''; } else if (c === '\r' && body[i + 1] === '\n') {
      record.push(field); records.push(record); record = []; field = ''; i++;
    } else field += c;
  }
  if (field !== '' || record.length > 0) throw new Error('the file does not end with a complete record');
  return records;
}
