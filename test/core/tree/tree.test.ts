import { describe, expect, test } from 'vitest';
import { branch, children, leafOf, leaves, parse, walkBranch, withLeaf } from '../../../src/core/index.ts';
import { HEADER, codes, e, jsonl } from '../helpers.ts';

//      a
//     / \
//    b   d
//    |   |
//    c   f      (g is an orphan root; h has no id)
const tree = () =>
  parse(jsonl(HEADER, e('a', null), e('b', 'a'), e('c', 'b'), e('d', 'a'), e('f', 'd'), e('g', 'zz'), { type: 'custom', customType: 'x', parentId: 'f' }));
const ids = (xs: { id?: string }[]) => xs.map((x) => x.id ?? '-');

describe('branch', () => {
  test('walks from the leaf (last entry with an id) to the root, oldest first', () => {
    const s = parse(jsonl(HEADER, e('a', null), e('b', 'a'), e('c', 'b'), e('d', 'a')));
    expect(s.leafId).toBe('d');
    expect(ids(branch(s))).toEqual(['a', 'd']);
    expect(ids(branch(s, 'c'))).toEqual(['a', 'b', 'c']);
  });

  test('an unknown or null leaf gives an empty branch', () => {
    const s = tree();
    expect(branch(s, 'nope')).toEqual([]);
    expect(branch(s, null)).toEqual([]);
  });

  test('a missing parent ends the walk at the orphan and is reported', () => {
    const s = tree();
    const r = walkBranch(s, 'g');
    expect(ids(r.entries)).toEqual(['g']);
    expect(codes(r.problems)).toEqual(['7:missing-parent']);
  });

  test('a cycle ends the walk instead of hanging', () => {
    const s = parse(jsonl(HEADER, e('a', 'c'), e('b', 'a'), e('c', 'b')));
    const r = walkBranch(s);
    expect(ids(r.entries)).toEqual(['a', 'b', 'c']);
    expect(codes(r.problems)).toEqual(['2:cycle']);
    const self = parse(jsonl(HEADER, e('x', 'x')));
    expect(ids(branch(self))).toEqual(['x']);
  });

  test('duplicate ids follow the later entry', () => {
    const s = parse(jsonl(HEADER, e('a', null), e('b', 'a'), e('x', null), e('b', 'x')));
    expect(ids(branch(s))).toEqual(['x', 'b']);
  });

  test('withLeaf picks another leaf for branch', () => {
    const s = withLeaf(tree(), 'c');
    expect(ids(branch(s))).toEqual(['a', 'b', 'c']);
  });
});

describe('children, leaves, leafOf', () => {
  test('children of an id, in file order; null gives roots and orphans', () => {
    const s = tree();
    expect(ids(children(s, 'a'))).toEqual(['b', 'd']);
    expect(ids(children(s, null))).toEqual(['a', 'g']);
    expect(ids(children(s, 'f'))).toEqual(['-']);
    expect(children(s, 'c')).toEqual([]);
  });

  test('leaves are entries with an id and no children', () => {
    expect(ids(leaves(tree()))).toEqual(['c', 'g']);
  });

  test('leafOf follows the newest child down', () => {
    const s = tree();
    expect(leafOf(s, 'a')).toBe('f');
    expect(leafOf(s, 'b')).toBe('c');
    expect(leafOf(s, 'c')).toBe('c');
    expect(leafOf(s, 'nope')).toBeNull();
  });

  test('leafOf survives a cycle', () => {
    const s = parse(jsonl(HEADER, e('a', 'b'), e('b', 'a')));
    expect(['a', 'b']).toContain(leafOf(s, 'a'));
  });
});
