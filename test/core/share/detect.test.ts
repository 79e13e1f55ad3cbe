// The core's detectors: what they find, and the look-alikes they leave alone.
import { describe, expect, test } from 'vitest';
import { findPersonal, looksRandom, userNameMatcher, userNamesIn } from '../../../src/core/share/detect.ts';
import { chosen, hitsOf, redactRecord } from '../../../src/core/share/hits.ts';
import { stringLeaves, whereOf } from '../../../src/core/share/leaves.ts';
import { cutLines, IMAGE_LEFT_OUT, stripRecord } from '../../../src/core/share/strip.ts';

const kinds = (text: string, names: RegExp | null = null, key?: string) => findPersonal(text, names, key).map((f) => [f.kind, text.slice(f.start, f.end)]);

describe('detectors', () => {
  test('home paths on Linux, macOS and Windows, and the user names in them', () => {
    expect(kinds('open /home/ada/x and /Users/bob/y and C:\\Users\\cy\\z')).toEqual([
      ['home-path', '/home/ada'],
      ['home-path', '/Users/bob'],
      ['home-path', 'C:\\Users\\cy'],
    ]);
    expect([...userNamesIn('/home/ada/x --Users-bobby-code-site--')].sort()).toEqual(['ada', 'bobby']);
    const names = userNameMatcher(['bobby', 'ada', 'user']);
    // 'ada' is too short to search as a word, 'user' too common; 'bobby' is found on its own, not inside words.
    expect(kinds('bobby@laptop and bobbysocks and /home/bobby/x', names)).toEqual([
      ['home-path', '/home/bobby'],
      ['user-name', 'bobby'],
    ]);
  });

  test('e-mail addresses, not file names with @2x', () => {
    expect(kinds('mail ada.l@example.org, see icon@2x.png')).toEqual([['email', 'ada.l@example.org']]);
  });

  test('IPv4 and IPv6 addresses, not versions, loopback or clock times', () => {
    expect(kinds('host 192.168.1.20 and fe80::1ff:fe23:4567:890a')).toEqual([
      ['ip-address', '192.168.1.20'],
      ['ip-address', 'fe80::1ff:fe23:4567:890a'],
    ]);
    expect(kinds('v1.2.3.4 and 1.2.3.4.5, 127.0.0.1, 0.0.0.0 at 12:30:45')).toEqual([]);
  });

  test('JWTs and PEM private keys, whole or cut off', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    expect(kinds(`Bearer ${jwt}`)).toEqual([['jwt', jwt]]);
    const cut = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA';
    expect(kinds(`key:\n${cut}`)).toEqual([['private-key', cut]]);
  });

  test('random-looking strings next to key, token, secret or password; plain words and short values are left', () => {
    expect(kinds('API_TOKEN=8f3kQ2m9Zx7Lp0Wv4Rt6')).toEqual([['high-entropy', '8f3kQ2m9Zx7Lp0Wv4Rt6']]);
    expect(kinds('password: "hunter2"')).toEqual([]);
    expect(kinds('the token handling_function_name is fine')).toEqual([]);
    expect(kinds('Zx7Lp0Wv4Rt68f3kQ2m9', null, 'apiKey')).toEqual([['high-entropy', 'Zx7Lp0Wv4Rt68f3kQ2m9']]);
    expect(looksRandom('aaaaaaaaaaaaaaaa1111')).toBe(false);
  });
});

describe('hits and redaction', () => {
  const record = {
    type: 'message',
    id: 'e1',
    parentId: null,
    timestamp: 't',
    message: {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'mail a@b.io and /home/ada/x', thinkingSignature: 's' },
        { type: 'toolCall', id: 'c', name: 'bash', arguments: { command: 'ssh 10.0.0.7' } },
      ],
    },
  };

  test('strings are found where they sit; ids, types and signatures are not scanned', () => {
    const leaves = stringLeaves(record);
    expect(leaves.map((l) => l.path.join('.'))).toEqual(['message.content.0.thinking', 'message.content.1.name', 'message.content.1.arguments.command']);
    expect(leaves.map((l) => whereOf(record, l.path))).toEqual(['thinking', 'tool call', 'tool call']);
  });

  test('chosen hits are replaced, overlapping ones merged, the rest kept; ids and parents untouched', () => {
    const copy = structuredClone(record);
    const leaves = stringLeaves(copy);
    const hits = hitsOf(
      copy,
      2,
      leaves,
      leaves.map((l) => findPersonal(l.text, null)),
    );
    expect(hits.map((h) => h.kind)).toEqual(['home-path', 'email', 'ip-address']);
    const keepIp = chosen({ kindsOff: ['ip-address'] });
    expect(redactRecord(copy, hits.filter(keepIp))).toBe(true);
    expect(copy.message.content[0]).toMatchObject({ thinking: 'mail [redacted: email] and [redacted: home-path]/x' });
    expect((copy.message.content[1] as { arguments: { command: string } }).arguments.command).toBe('ssh 10.0.0.7');
    expect([copy.id, copy.parentId]).toEqual(['e1', null]);
  });
});

describe('strip options', () => {
  test('thinking, signatures, payloads, details, images and long tool output', () => {
    const assistant = {
      type: 'message',
      id: 'a',
      parentId: null,
      message: {
        role: 'assistant',
        providerPayload: { x: 1 },
        content: [
          { type: 'thinking', thinking: 't', thinkingSignature: 's' },
          { type: 'text', text: 'hi', textSignature: 'x' },
          { type: 'redactedThinking', data: 'enc' },
        ],
      },
    };
    const a1 = structuredClone(assistant);
    expect(stripRecord(a1, { signatures: true, providerPayloads: true })).toBe(true);
    expect(a1.message).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 't' },
        { type: 'text', text: 'hi' },
      ],
    });
    const a2 = structuredClone(assistant);
    stripRecord(a2, { thinking: true });
    expect(a2.message.content.map((p) => p.type)).toEqual(['text']);
    const result = {
      type: 'message',
      id: 'r',
      parentId: 'a',
      message: {
        role: 'toolResult',
        details: { diff: 'x' },
        content: [
          { type: 'text', text: 'l1\nl2\nl3\nl4' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      },
    };
    stripRecord(result, { toolDetails: true, images: true, toolOutputLines: 2 });
    expect(result.message).toEqual({
      role: 'toolResult',
      content: [
        { type: 'text', text: 'l1\nl2\n[… 2 more lines left out]' },
        { type: 'text', text: IMAGE_LEFT_OUT },
      ],
    });
    expect(cutLines('a\nb', 2)).toBe('a\nb');
    expect(stripRecord({ type: 'label', id: 'l', targetId: 'a' }, { thinking: true, images: true })).toBe(false);
  });
});
