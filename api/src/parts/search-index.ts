import MiniSearch, { type SearchResult } from 'minisearch';

/**
 * The catalogue's search: an in-process MiniSearch index of every part's name and description,
 * kept in step with the catalogue's snapshot (parts/catalogue.ts) part by part — `sync` compares a
 * fresh scan with what is indexed and re-indexes only the parts whose words changed, so a reload
 * (every TTL with an external database, every create or delete) never rebuilds the whole index.
 *
 * A query is its words, and every word must match a word of the part, by one of:
 * - prefix ("spark" finds "Sparkplug", "brak" finds "Brake");
 * - a small edit distance: one typo per four to five letters (`maxEditsOf`), a swap of two
 *   neighbouring letters counting as one ("glvoes" finds "Gloves"; MiniSearch's Levenshtein distance
 *   would count it as two, so each such swap of the word is also looked up, by prefix);
 *   Words with a digit in them (sizes, part numbers) match by prefix only;
 * - joined or split words: each pair of adjacent query words is also looked up joined ("spark
 *   plug" finds "Sparkplug"), and a query word of six letters or more also matches a part that
 *   has a word of its first letters and one starting with (or a typo of) the rest ("sparkplug"
 *   finds "Spark Plug", "sparkplgu" too). Split at query time rather than indexing every pair of
 *   a part's words joined, which doubled the index (35 MB against 17 MB at 10,000 parts).
 * Matches rank by how well each word matched (exact over prefix over fuzzy), then by how many
 * words matched in the name, then by MiniSearch's BM25 score with the name boosted.
 */

/** What the index reads of a part. */
export interface Searchable {
  id: string;
  name: string;
  text: string;
}

/** How one matched part ranks; higher is better, compared in this order. */
export interface Rank {
  /** Per query word: 3 exact, 2 prefix, 1 fuzzy, summed. */
  quality: number;
  /** Query words matched in the name. */
  inName: number;
  /** MiniSearch's relevance score, summed over the words' look-ups. */
  score: number;
}

export function compareRanks(a: Rank, b: Rank): number {
  return b.quality - a.quality || b.inName - a.inName || b.score - a.score;
}

/** Query words beyond this many are ignored (a query is at most 100 characters anyway). */
const MAX_WORDS = 12;

const defaultTokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** Lower case without diacritics: "Bremsbeläge" and "bremsbelage" are one word. */
export function normalizeTerm(term: string): string {
  return term
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

/** The words of a text, normalized (no empty ones). */
export function wordsOf(text: string): string[] {
  return defaultTokenize(text).map(normalizeTerm).filter(Boolean);
}

/** Typos allowed in a word of `length` letters: none up to 3, one per 4–5 letters after, 3 at most. */
export function maxEditsOf(length: number): number {
  return Math.min(3, Math.floor((length + 1) / 5));
}

/** Letters each half of a split query word has at least. */
const MIN_SPLIT = 3;

type Kind = 3 | 2 | 1;

interface Piece {
  quality: number;
  inName: number;
  score: number;
}

export class SearchIndex {
  private index = SearchIndex.empty();
  /** What is indexed of each part, to tell which parts a fresh scan changed. */
  private readonly indexed = new Map<string, string>();

  private static empty(): MiniSearch<Searchable> {
    return new MiniSearch<Searchable>({
      fields: ['name', 'text'],
      storeFields: [],
      tokenize: wordsOf,
      // Terms arrive normalized from the tokenizers; nothing to drop.
      processTerm: (term) => term,
    });
  }

  get size(): number {
    return this.indexed.size;
  }

  /**
   * Makes the index hold exactly `parts`: adds the new ones, re-indexes those whose name or
   * description changed, removes those gone. Returns how many it touched.
   */
  sync(parts: Iterable<Searchable>): number {
    const seen = new Set<string>();
    let touched = 0;
    for (const part of parts) {
      seen.add(part.id);
      if (this.put(part)) touched++;
    }
    for (const id of this.indexed.keys()) {
      if (!seen.has(id)) {
        this.remove(id);
        touched++;
      }
    }
    return touched;
  }

  /** Indexes one part, or re-indexes it if its words changed; whether it did. */
  put(part: Searchable): boolean {
    const signature = `${part.name}\u0000${part.text}`;
    const was = this.indexed.get(part.id);
    if (was === signature) return false;
    if (was === undefined) this.index.add(part);
    else this.index.replace(part);
    this.indexed.set(part.id, signature);
    return true;
  }

  remove(id: string): void {
    if (!this.indexed.has(id)) return;
    this.index.discard(id);
    this.indexed.delete(id);
  }

  /** Forgets everything (the catalogue is too big to keep in memory). */
  clear(): void {
    this.index = SearchIndex.empty();
    this.indexed.clear();
  }

  /** The parts every word of `q` matches, with their rank; empty when `q` has no words. */
  search(q: string): Map<string, Rank> {
    const words = [...new Set(wordsOf(q))].slice(0, MAX_WORDS);
    const found = new Map<string, Rank>();
    if (words.length === 0) return found;
    const singles = words.map((w) => this.lookUpOrSplit(w));
    const pairs = joinedPairs(words).map((w) => this.lookUp(w, 2));
    // A part matches when its words cover the query's: each query word alone, or two adjacent
    // ones joined. Candidates are the parts that can cover the first word.
    const candidates = new Set([...(singles[0]?.keys() ?? []), ...(pairs[0]?.keys() ?? [])]);
    for (const id of candidates) {
      const best: (Piece | null)[] = new Array<Piece | null>(words.length + 1).fill(null);
      best[words.length] = { quality: 0, inName: 0, score: 0 };
      for (let i = words.length - 1; i >= 0; i--) {
        const options: Piece[] = [];
        const single = singles[i]?.get(id);
        const rest1 = best[i + 1];
        if (single && rest1) options.push(add(single, rest1));
        const pair = pairs[i]?.get(id);
        const rest2 = best[i + 2];
        if (pair && rest2) options.push(add(pair, rest2));
        best[i] = options.sort(compareRanks)[0] ?? null;
      }
      const cover = best[0];
      if (cover) found.set(id, cover);
    }
    return found;
  }

  /** A query word's matches as one word, or as two words of the part ("sparkplug" → spark + plug…). */
  private lookUpOrSplit(word: string): Map<string, Piece> {
    const pieces = this.lookUp(word, 1);
    for (let k = MIN_SPLIT; k <= word.length - MIN_SPLIT; k++) {
      const left = this.exactly(word.slice(0, k));
      if (left.size === 0) continue;
      for (const [id, right] of this.lookUp(word.slice(k), 1)) {
        const first = left.get(id);
        if (!first) continue;
        // Both halves found: as good as the rest's match, at best a prefix's (it was not the word written).
        const piece: Piece = {
          quality: Math.min(2, right.quality),
          inName: Math.min(first.inName, right.inName),
          score: (first.score + right.score) / 2,
        };
        const had = pieces.get(id);
        if (!had || compareRanks(piece, had) < 0) pieces.set(id, piece);
      }
    }
    return pieces;
  }

  /** The parts with exactly this word. */
  private exactly(term: string): Map<string, Piece> {
    const pieces = new Map<string, Piece>();
    this.collect(pieces, term, term, 0, 1, false);
    return pieces;
  }

  /** The parts with a word matching `term` (prefix or within its edits), as a piece covering `width` query words. */
  private lookUp(term: string, width: 1 | 2): Map<string, Piece> {
    // A word with a digit (a size, a part number, "10w40") is never a typo of another: 42T is not 43T.
    const edits = /\d/u.test(term) ? 0 : maxEditsOf(term.length);
    const pieces = new Map<string, Piece>();
    this.collect(pieces, term, term, edits, width);
    if (edits > 0) for (const swapped of swapsOf(term)) this.collect(pieces, term, swapped, 0, width);
    return pieces;
  }

  /** Adds the parts matching `lookedUp` (for the query word `term`) to `pieces`, keeping each part's best. */
  private collect(
    pieces: Map<string, Piece>,
    term: string,
    lookedUp: string,
    edits: number,
    width: 1 | 2,
    prefix = true,
  ): void {
    const results: SearchResult[] = this.index.search(lookedUp, {
      prefix,
      fuzzy: edits > 0 ? edits : false,
      maxFuzzy: 3,
      boost: { name: 3 },
      weights: { prefix: 0.5, fuzzy: 0.2 },
      // The query words were normalized already, and are looked up one at a time.
      tokenize: (t) => [t],
      processTerm: (t) => t,
    });
    for (const result of results) {
      let kind: Kind = 1;
      let inName = false;
      for (const [matched, fields] of Object.entries(result.match)) {
        const k: Kind = matched === term ? 3 : matched.startsWith(term) ? 2 : 1;
        if (k > kind) kind = k;
        if (fields.includes('name')) inName = true;
      }
      // A swapped spelling's match is a typo's, and scores as one.
      const score = lookedUp === term ? result.score : result.score * 0.2;
      const piece = { quality: kind * width, inName: inName ? width : 0, score };
      const id = String(result.id);
      const had = pieces.get(id);
      if (!had || compareRanks(piece, had) < 0) pieces.set(id, piece);
    }
  }
}

/** Each pair of neighbouring words joined into one. */
function joinedPairs(words: readonly string[]): string[] {
  return words.slice(1).map((word, i) => `${words[i] ?? ''}${word}`);
}

/** The word with each pair of neighbouring (different) letters swapped. */
function swapsOf(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 1 < word.length; i++) {
    const [a, b] = [word.charAt(i), word.charAt(i + 1)];
    if (a !== b) out.add(word.slice(0, i) + b + a + word.slice(i + 2));
  }
  return [...out];
}

function add(a: Piece, b: Piece): Piece {
  return { quality: a.quality + b.quality, inName: a.inName + b.inName, score: a.score + b.score };
}
