// Bad and odd session files every envelope reader must read as `parse` does (envelopes.test.ts,
// envelope-tail.test.ts).
import { HEADER, bytes, e, jsonl, m } from '../helpers.ts';

const slot = { type: 'title', v: 1, title: 'T', source: 'auto', updatedAt: 'u', pad: '  ' };
const user = (text: string) => ({ role: 'user', content: text, timestamp: 1 });
const v1 = jsonl(
  { type: 'session', id: 's', timestamp: 't' },
  { type: 'message', timestamp: 't', message: user('a') },
  'garbage',
  { type: 'message', timestamp: 't', message: { role: 'hookMessage', customType: 'x', content: 'c', display: true } },
  { type: 'compaction', timestamp: 't', summary: 'S', firstKeptEntryIndex: 3, tokensBefore: 5 },
);

/** Bad and odd inputs: each must come out of both readers the same. */
export const CASES: Record<string, string | Uint8Array> = {
  clean: jsonl(HEADER, e('a', null), m('b', 'a', user('hi "quoted" \\ back')), e('c', 'b')),
  'torn last line': jsonl(HEADER, e('a', null)) + '{"type":"message","id":"b","par',
  'complete last line without newline': jsonl(HEADER) + JSON.stringify(e('a', null)),
  garbage: jsonl(HEADER, 'not json', 'null', '123', '[1]', '"s"', '{"a":1}{"b":2}', '{"type":"custom","id":"q"', '{"a":nope}', e('a', null)),
  'no header': jsonl(e('a', null), e('b', 'a')),
  empty: '',
  blanks: '\n \n\t\n' + jsonl(HEADER) + '\r\n\n' + jsonl(e('a', null)),
  crlf: JSON.stringify(HEADER) + '\r\n' + JSON.stringify(e('a', null)) + '\r\n',
  'header later and twice': jsonl(e('a', null), HEADER, e('b', 'a'), { ...HEADER, id: 'other' }),
  'invalid header': jsonl({ type: 'session', version: 3 }, e('a', null)),
  duplicates: jsonl(HEADER, e('a', null, 'custom', { n: 1 }), e('b', 'a'), e('a', null, 'custom', { n: 2 })),
  'missing parents and cycles': jsonl(HEADER, e('a', 'nope'), e('b', 'c'), e('c', 'b'), e('d', 'd'), e('f', 'c')),
  'future version': jsonl({ ...HEADER, version: 9 }, e('a', null)),
  'title slot': jsonl(slot, { ...HEADER, title: 'stale' }, e('a', null)),
  'bad title slot': jsonl({ ...slot, v: 2 }, HEADER, e('a', null)),
  'non-string envelopes': jsonl(
    HEADER,
    { type: 'custom', customType: 'x', id: 5, parentId: null, timestamp: 't' },
    { type: 7, id: 'b', parentId: ['x'] },
    { id: 'c', parentId: 'b' },
  ),
  'escaped envelope values and keys': jsonl(
    HEADER,
    '{"type":"custom","id":"a\\"b","parentId":null}',
    '{"\\u0074ype":"custom","id":"c","parentId":"a\\"b"}',
    '{"type":"custom","i\\u0064":"d","parentId":"c"}',
  ),
  'envelope after the body, nested decoys': jsonl(
    HEADER,
    { type: 'custom', customType: 'x', data: { id: 'inner', parentId: 'zz', type: 'session', s: '"id":"nope"' }, id: 'a', parentId: null },
    { content: [{ type: 'text', text: '{"id":"x"}' }], type: 'custom_message', id: 'b', parentId: 'a' },
  ),
  'duplicate keys in a line': '{"type":"session","version":3,"id":"s","timestamp":"t"}\n{"type":"custom","id":"a","parentId":null,"id":"b"}\n',
  'whitespace inside': jsonl(HEADER) + '  { "type" : "custom" , "id" : "a" , "parentId" : null , "x" : [ 1 , { "y" : true } ] }  \n',
  v1,
  v2: jsonl({ ...HEADER, version: 2 }, m('a', null, { role: 'hookMessage', customType: 'x', content: 'c', display: true })),
  'invalid utf-8': new Uint8Array([...bytes(jsonl(HEADER)), ...bytes('{"type":"custom","customType":"'), 0xff, ...bytes('","id":"a","parentId":null}\n')]),
  'unicode and line separators': jsonl(HEADER, m('a', null, user('héllo 🌍 \u2028 \u0085 ok'))),
  bom: '\ufeff' + jsonl(HEADER, e('a', null)),
  'broken bodies (not JSON) are skipped as by parse': jsonl(
    HEADER,
    e('a', null),
    '{"type":"custom","id":"b","parentId":"a","x":[1,]}',
    '{"type":"custom","id":"c","parentId":"a","x":01}',
    '{"type":"custom","id":"d","parentId":"a","x":-}',
    '{"type":"custom","id":"e","parentId":"a","x":"tab\there"}',
    '{"type":"custom","id":"f\u0001","parentId":"a"}',
    '{"type":"custom","id":"g","parentId":"a","x":{"k" 1}}',
    '{"type":"custom","id":"h","parentId":"a","x":"bad \\q escape"}',
    '{"type":"custom","id":"i","parentId":"a","x":{"":{,}}}',
    '{"type":"custom","id":"j","parentId":"a","x":[{"a":[1,{"b":null}],"c":-1.5e+3}],"y":"\\u00e9 \\" \\\\"}',
    e('k', 'j'),
  ),
};
