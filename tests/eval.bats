#!/usr/bin/env bats
# The ground truth of make eval: bench/jaccard, the exact all-pairs Jaccard
# join over shingle sets, checked on hand-computed corpora and against a
# brute force over all pairs; bench/prf, precision and recall of pairs.

load helper

ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
PATH="$ROOT/bench:$PATH"

JUSAGE='usage: jaccard [-S] [-c n] [-w n] -t threshold [file ...]
       jaccard -s [-S] [-c n] [-w n] [file ...]'

# make check builds bin/ only: build the bench tools here (a no-op when
# make eval has).
setup_file() {
	make -s -C "$ROOT" bench/gen bench/jaccard bench/prf bench/editjoin \
	    bench/shortgen >&2
}

# brute [-S] W C T... <CORPUS: every pair of "ID<TAB>TEXT" lines of CORPUS
# at each threshold T, "T<TAB>ID1<TAB>ID2<TAB>J", by comparing the shingle
# sets (W words, C CJK characters) of all pairs; the shingles as the
# header of bench/jaccard.c defines them, written again here from that
# text: within stretches of words and runs of CJK characters, or with -S
# within one stream of each for the whole text.
brute() {
	python3 -c '
import sys

SEP = [(0x80, 0xa9), (0xab, 0xb1), (0xb4, 0xb4), (0xb6, 0xb8), (0xbb, 0xbb),
    (0xbf, 0xbf), (0xd7, 0xd7), (0xf7, 0xf7), (0x2000, 0x206f),
    (0x20a0, 0x20cf), (0x2190, 0x2bff), (0x2e00, 0x2e7f), (0x3000, 0x303f),
    (0xfe10, 0xfe1f), (0xfe30, 0xfe6f), (0xfeff, 0xfeff), (0xff00, 0xff0f),
    (0xff1a, 0xff20), (0xff3b, 0xff40), (0xff5b, 0xff65), (0xfff0, 0xffff),
    (0x1f000, 0x1faff), (0xd800, 0xdfff)]    # last: undecodable bytes
CJK = [(0x3040, 0x30ff), (0x3400, 0x4dbf), (0x4e00, 0x9fff),
    (0xf900, 0xfaff), (0xac00, 0xd7af), (0x20000, 0x2ffff)]

def cls(ch):
    c = ord(ch)
    if c < 0x80:
        return "w" if ch.isalnum() else "s"
    if any(a <= c <= b for a, b in CJK):
        return "c"
    if any(a <= c <= b for a, b in SEP):
        return "s"
    return "w"

def grams(v, n, tag, sep):
    n = min(n, len(v))
    return {tag + sep.join(v[i:i + n]) for i in range(len(v) - n + 1)} \
        if v else set()

# A stretch of words ends at a CJK character, a run of CJK characters at
# any other character; with -S neither ends before the text does.
def shingles(text):
    words, cjk, cur = [[]], [[]], ""
    for ch in text.decode("utf-8", "surrogateescape"):
        k = cls(ch)
        if k != "c" and cjk[-1] and not SPAN:
            cjk.append([])
        if k == "w":
            cur += ch.lower() if "A" <= ch <= "Z" else ch
            continue
        if cur:
            words[-1].append(cur)
        cur = ""
        if k == "c":
            if words[-1] and not SPAN:
                words.append([])
            cjk[-1].append(ch)
    if cur:
        words[-1].append(cur)
    return set().union(*[grams(v, W, "w", " ") for v in words],
        *[grams(v, C, "c", "") for v in cjk])

SPAN = sys.argv[1] == "-S"
if SPAN:
    del sys.argv[1]
W, C = int(sys.argv[1]), int(sys.argv[2])
docs = []
for line in sys.stdin.buffer:
    i, t = line.rstrip(b"\n").split(b"\t", 1)
    docs.append((i.decode(), shingles(t)))
ts = [(t, round(float(t) * 1000000)) for t in sys.argv[3:]]
for x in range(len(docs)):
    for y in range(x + 1, len(docs)):
        a, b = docs[x][1], docs[y][1]
        if not a or not b:
            continue
        inter = len(a & b)
        uni = len(a) + len(b) - inter
        for t, tm in ts:
            if inter * 1000000 >= tm * uni:
                print("%s\t%s\t%s\t%.6f" % (t, docs[x][0], docs[y][0],
                    inter / uni))
' "$@"
}

# near_corpus FILE: about 400 documents with many near-copies: 100 English
# and 30 mixed English and Chinese ones from bench/gen, two copies of each
# with words deleted, substituted or inserted at 0.5 to 11.5 %, copies cut
# to one to four words, exact copies and empty ones.
near_corpus() {
	{ gen -s 1 en 100; gen -s 1 mixed 30; } >"$1.src"
	awk -F '\t' 'BEGIN { srand(7) }
	{
		print
		n = split($2, w, " ")
		for (c = 1; c <= 2; c++) {
			rate = (NR * 7 + c * 13) % 12 / 100 + 0.005
			s = ""
			for (i = 1; i <= n; i++) {
				r = rand()
				if (r < rate / 3)
					continue
				if (r < rate * 2 / 3)
					s = s " Edit" int(rand() * 50)
				else if (r < rate)
					s = s " " w[i] " the"
				else
					s = s " " w[i]
			}
			print $1 "-c" c "\t" substr(s, 2)
		}
		if (NR % 10 == 0) {
			print $1 "-short\t" w[1] " " w[2] " " w[3] " " w[4]
			print $1 "-short3\t" toupper(w[1]) ", " w[2] " " w[3]
			print $1 "-short2\t" w[1] (NR % 20 ? " " w[2] : "")
		}
		if (NR % 15 == 0)
			print $1 "-same\t" $2
		if (NR % 40 == 0)
			print $1 "-empty\t--"
	}' "$1.src" >"$1"
}

# --- jaccard: usage and options ------------------------------------------

@test "jaccard: no -t, unknown option: usage, exit 2" {
	run -2 --separate-stderr jaccard /dev/null
	eq "$output" ""
	eq "$stderr" "$JUSAGE"
	run -2 --separate-stderr jaccard -S -c 2 /dev/null
	eq "$output" ""
	eq "$stderr" "$JUSAGE"
	run -2 --separate-stderr jaccard -j -t 0.5 /dev/null
	eq "$output" ""
	eq "${stderr_lines[0]}" "jaccard: invalid option -- 'j'"
	eq "$(printf '%s\n' "${stderr_lines[@]:1}")" "$JUSAGE"
}

@test "jaccard: -t outside (0, 1], over 6 decimals or not a number" {
	for t in 0 0.0 1.5 1.000001 0.1234567 x '' 0.5x -0.5 .; do
		run -2 --separate-stderr jaccard -t "$t" /dev/null
		eq "$output" ""
		eq "$stderr" "jaccard: -t $t: threshold not in (0, 1] with at most 6 decimals"
	done
	for t in 1 1. 1.000000 .5 0.000001; do
		run -0 --separate-stderr jaccard -t "$t" /dev/null
		eq "$output$stderr" ""
	done
}

@test "jaccard: -w and -c outside 1..1000 or not a number" {
	run -2 --separate-stderr jaccard -w 0 -t 0.5 /dev/null
	eq "$stderr" "jaccard: -w 0: number out of range"
	run -2 --separate-stderr jaccard -c 1001 -t 0.5 /dev/null
	eq "$stderr" "jaccard: -c 1001: number out of range"
	run -2 --separate-stderr jaccard -w x -t 0.5 /dev/null
	eq "$stderr" "jaccard: -w x: invalid value"
	eq "$output" ""
}

# --- jaccard: shingles, by hand -------------------------------------------

@test "jaccard: English words, case folded, punctuation skipped" {
	printf '%s\t%s\n' a 'The quick brown fox jumps' \
	    b 'the QUICK brown fox leaps' \
	    c 'the quick, brown... fox (jumps)!' >"$BATS_TEST_TMPDIR/in"
	# a = c = {the quick brown, quick brown fox, brown fox jumps};
	# b shares 2 of them: 2 / 4.
	run -0 --separate-stderr jaccard -s "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'a\t3\nb\t3\nc\t3')"
	run -0 --separate-stderr jaccard -t 0.5 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'a\tb\t0.500000\na\tc\t1.000000\nb\tc\t0.500000')"
	eq "$stderr" ""
	run -0 --separate-stderr jaccard -t 0.500001 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'a\tc\t1.000000')"
	# Word pairs: 3 shared of 5.
	run -0 --separate-stderr jaccard -w 2 -t 0.6 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'a\tb\t0.600000\na\tc\t1.000000\nb\tc\t0.600000')"
	# Without CJK, one stretch of words is the whole text: -S the same.
	run -0 --separate-stderr jaccard -S -t 0.5 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'a\tb\t0.500000\na\tc\t1.000000\nb\tc\t0.500000')"
}

@test "jaccard: a pair exactly at t is in, just below it is out" {
	# 3 of 4 shingles, then 1 of 3.
	printf '%s\t%s\n' x1 'a b c d e f' x2 'a b c d e' \
	    y1 'one two three four' y2 'One two three five' \
	    >"$BATS_TEST_TMPDIR/in"
	run -0 jaccard -t 0.75 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'x1\tx2\t0.750000')"
	run -0 jaccard -t 0.749999 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'x1\tx2\t0.750000')"
	run -0 jaccard -t 0.750001 "$BATS_TEST_TMPDIR/in"
	eq "$output" ""
	run -0 jaccard -t 0.333333 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'x1\tx2\t0.750000\ny1\ty2\t0.333333')"
	run -0 jaccard -t 0.333334 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'x1\tx2\t0.750000')"
	run -0 jaccard -t 1 "$BATS_TEST_TMPDIR/in"
	eq "$output" ""
}

@test "jaccard: fewer words than W make one shingle of all of them" {
	printf '%s\t%s\n' s1 'hello world' s2 'Hello, World!' s3 hello \
	    s4 'world hello' s5 'hello world again' >"$BATS_TEST_TMPDIR/in"
	run -0 jaccard -s "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 's1\t1\ns2\t1\ns3\t1\ns4\t1\ns5\t1')"
	run -0 jaccard -t 0.000001 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 's1\ts2\t1.000000')"
	# One word a shingle.
	run -0 jaccard -w 1 -t 0.3 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\t%s\n' s1 s2 1.000000 s1 s3 0.500000 \
	    s1 s4 1.000000 s1 s5 0.666667 s2 s3 0.500000 s2 s4 1.000000 \
	    s2 s5 0.666667 s3 s4 0.500000 s3 s5 0.333333 s4 s5 0.666667)"
}

@test "jaccard: CJK characters, C = 5, a run ends at a separator" {
	printf '%s\t%s\n' k1 我们今天去北京 k2 '我们，今天去北京。' \
	    k3 我们今天去上海 k4 北京 k5 '北 京！' k6 東京タワー \
	    k7 '안녕하세요 친구' k8 '我们,今天去北京' \
	    >"$BATS_TEST_TMPDIR/in"
	# k1: 我们今天去 们今天去北 今天去北京.  The commas of k2
	# (full width) and k8 (ASCII) cut runs of 2 and 5, each
	# one shingle: 我们 今天去北京.  k3: 我们今天去
	# 们今天去上 今天去上海.  k4: 北京.  k5: 北 京.  k6, kana
	# included: 東京タワー.  k7: 안녕하세요 친구.
	run -0 jaccard -s "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\n' k1 3 k2 2 k3 3 k4 1 k5 2 k6 1 \
	    k7 2 k8 2)"
	# k1 shares 今天去北京 with k2 and k8, 1 of 4, and
	# 我们今天去 with k3, 1 of 5; k2 = k8; k4 and k5 share
	# nothing.
	run -0 jaccard -t 0.2 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\t%s\n' k1 k2 0.250000 k1 k3 0.200000 \
	    k1 k8 0.250000 k2 k8 1.000000)"
	run -0 jaccard -t 0.200001 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\t%s\n' k1 k2 0.250000 k1 k8 0.250000 \
	    k2 k8 1.000000)"
	run -0 jaccard -t 0.250001 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'k2\tk8\t1.000000')"
	# Bigrams: k1 我们 们今 今天 天去 去北 北京; k2 = k8 the
	# same but 们今; k3 我们 们今 今天 天去 去上 上海.  k1-k2
	# 5 of 6, k1-k3 4 of 8, k2-k3 3 of 8; k4 北京 is 1 of 5
	# with k2, 1 of 6 with k1.
	run -0 jaccard -c 2 -t 0.2 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\t%s\n' k1 k2 0.833333 k1 k3 0.500000 \
	    k1 k8 0.833333 k2 k3 0.375000 k2 k4 0.200000 k2 k8 1.000000 \
	    k3 k8 0.375000 k4 k8 0.200000)"
	# -S: one stream of CJK characters, separators skipped:
	# k2 = k8 = k1, k5 = k4, k7 안녕하세요 녕하세요친
	# 하세요친구.
	run -0 jaccard -S -s "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\n' k1 3 k2 3 k3 3 k4 1 k5 1 k6 1 \
	    k7 3 k8 3)"
	run -0 jaccard -S -t 0.2 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\t%s\n' k1 k2 1.000000 k1 k3 0.200000 \
	    k1 k8 1.000000 k2 k3 0.200000 k2 k8 1.000000 k3 k8 0.200000 \
	    k4 k5 1.000000)"
	# Bigrams: k1, k2 and k8 each share 4 of 8 with k3.
	run -0 jaccard -S -c 2 -t 0.5 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\t%s\n' k1 k2 1.000000 k1 k3 0.500000 \
	    k1 k8 1.000000 k2 k3 0.500000 k2 k8 1.000000 k3 k8 0.500000 \
	    k4 k5 1.000000)"
}

@test "jaccard: mixed text, a CJK character ends a word" {
	printf '%s\t%s\n' m1 'abc 我们今天去北京 def ghi' m2 'ABC def ghi' \
	    m3 'abc我们今天去北京def ghi' >"$BATS_TEST_TMPDIR/in"
	# m1 = m3: the run of 7 cuts the words into stretches abc and
	# def ghi, 2 shingles and 3 CJK ones; m2: abc def ghi.
	run -0 jaccard -s "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'm1\t5\nm2\t1\nm3\t5')"
	run -0 jaccard -t 0.000001 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'm1\tm3\t1.000000')"
	# -S: abc def ghi in all three, 1 of 4 with m2.
	run -0 jaccard -S -s "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'm1\t4\nm2\t1\nm3\t4')"
	run -0 jaccard -S -t 0.25 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\t%s\n' m1 m2 0.250000 m1 m3 1.000000 \
	    m2 m3 0.250000)"
	# x, y and 我; pairs: x, y and 我, or x y and 我.
	run -0 jaccard -s -w 1 -c 1 <<<$'z\tx我y'
	eq "$output" "$(printf 'z\t3')"
	run -0 jaccard -s -w 2 <<<$'z\tx我y'
	eq "$output" "$(printf 'z\t3')"
	run -0 jaccard -S -s -w 2 <<<$'z\tx我y'
	eq "$output" "$(printf 'z\t2')"
}

@test "jaccard: a word ends a CJK run, a CJK character a stretch of words" {
	printf '%s\t%s\n' x1 北京abc上海 x2 'one two 我 three four' \
	    x3 'one two three four' x4 北京上海 \
	    x5 'One, two。three — four!' >"$BATS_TEST_TMPDIR/in"
	# C = 2.  x1: abc, runs 北京 and 上海.  x2: stretches one two and
	# three four, shorter than W, and 我.  x3: one two three, two three
	# four.  x4: 北京 京上 上海.  x5: the same as x3, for punctuation,
	# even 。, does not end a stretch.
	run -0 jaccard -s -c 2 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\n' x1 3 x2 3 x3 2 x4 3 x5 2)"
	# x1-x4: 北京 and 上海 of 4; x2 shares nothing with x3.
	run -0 jaccard -c 2 -t 0.000001 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'x1\tx4\t0.500000\nx3\tx5\t1.000000')"
	# -S: x1 北京 京上 上海 and abc, 3 of 4 with x4; x2 one two three,
	# two three four and 我, 2 of 3 with x3 and x5.
	run -0 jaccard -S -s -c 2 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\n' x1 4 x2 3 x3 2 x4 3 x5 2)"
	run -0 jaccard -S -c 2 -t 0.000001 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\t%s\n' x1 x4 0.750000 x2 x3 0.666667 \
	    x2 x5 0.666667 x3 x5 1.000000)"
}

@test "jaccard: other letters are word characters, only ASCII folds" {
	printf '%s\t%s\n' u1 'café naïve—test' u2 'Café naïve test.' \
	    u3 'CAFÉ naïve test' u4 'café « naïve » test' >"$BATS_TEST_TMPDIR/in"
	run -0 jaccard -t 1 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'u1\tu2\t1.000000\nu1\tu4\t1.000000\nu2\tu4\t1.000000')"
	# Full-width letters are words, full-width punctuation separates.
	printf '%s\t%s\n' f1 'ＦＵＬＬ，ｔｅｘｔ' f2 ＦＵＬＬｔｅｘｔ \
	    f3 'FULL text' >"$BATS_TEST_TMPDIR/in"
	run -0 jaccard -s -w 1 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'f1\t2\nf2\t1\nf3\t2')"
	run -0 jaccard -w 1 -t 0.000001 "$BATS_TEST_TMPDIR/in"
	eq "$output" ""
}

@test "jaccard: invalid UTF-8 and NUL bytes separate words" {
	printf 'a\tab\377cd\300\201ef\355\240\200gh\000ij\nb\tab cd ef gh ij\n' \
	    >"$BATS_TEST_TMPDIR/in"
	run -0 jaccard -s -w 1 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'a\t5\nb\t5')"
	run -0 jaccard -t 1 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'a\tb\t1.000000')"
	# A cut sequence, then a whole character.
	printf 'c\t\344\270\344\270\255\n' >"$BATS_TEST_TMPDIR/in"
	run -0 jaccard -s "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'c\t1')"
	# An invalid byte ends a CJK run: 中 and 文, or with -S 中文.
	printf 'd\t\344\270\255\377\346\226\207\n' >"$BATS_TEST_TMPDIR/in"
	run -0 jaccard -s "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'd\t2')"
	run -0 jaccard -S -s "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'd\t1')"
}

@test "jaccard: empty sets are never paired" {
	printf '%s\t%s\n' e1 '!!!' e2 '' e3 。 e4 'x' >"$BATS_TEST_TMPDIR/in"
	run -0 jaccard -s "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf 'e1\t0\ne2\t0\ne3\t0\ne4\t1')"
	run -0 --separate-stderr jaccard -t 0.000001 "$BATS_TEST_TMPDIR/in"
	eq "$output$stderr" ""
}

@test "jaccard: pairs in line order; duplicate IDs are different documents" {
	printf '%s\t%s\n' p3 'a b c d e f' p1 'a b c d e' p2 'a b c d e f' \
	    x 'same text here' x 'same text here' >"$BATS_TEST_TMPDIR/in"
	run -0 jaccard -t 0.7 "$BATS_TEST_TMPDIR/in"
	eq "$output" "$(printf '%s\t%s\t%s\n' p3 p1 0.750000 p3 p2 1.000000 \
	    p1 p2 0.750000 x x 1.000000)"
}

# --- jaccard: against the brute force -------------------------------------

@test "jaccard: the same pairs and values as all pairs by brute force" {
	local d="$BATS_TEST_TMPDIR" s t b
	near_corpus "$d/corpus"
	[ "$(wc -l <"$d/corpus")" -ge 300 ]
	# Cut at the other script, then spanning it (-S).
	for s in '' -S; do
		b="$d/brute$s"
		brute $s 3 5 0.5 0.8 0.9 <"$d/corpus" >"$b"
		for t in 0.5 0.8 0.9; do
			awk -F '\t' -v t="$t" '$1 == t' "$b" |
			    cut -f 2- >"$d/want"
			jaccard $s -t "$t" "$d/corpus" >"$d/got"
			same_files "$d/want" "$d/got"
		done
		# Enough pairs on both sides of each threshold to mean
		# something.
		[ "$(grep -c '^0\.5' "$b")" -gt 300 ]
		[ "$(grep -c '^0\.9' "$b")" -gt 50 ]
		[ "$(grep -c '^0\.5' "$b")" -gt "$(grep -c '^0\.8' "$b")" ]
		[ "$(grep -c '^0\.8' "$b")" -gt "$(grep -c '^0\.9' "$b")" ]
		grep -q 'mixed-.*mixed-' "$b"
		grep -q -- '-short' "$b"
	done
	# The English documents have no CJK: the same either way.  The
	# mixed ones part.
	grep -v mixed "$d/brute" >"$d/want"
	grep -v mixed "$d/brute-S" >"$d/got"
	same_files "$d/want" "$d/got"
	grep 'mixed-.*mixed-' "$d/brute" >"$d/want"
	grep 'mixed-.*mixed-' "$d/brute-S" >"$d/got"
	run -1 cmp -s "$d/want" "$d/got"
}

@test "jaccard: brute force agrees with other -w and -c" {
	local d="$BATS_TEST_TMPDIR" s w c
	near_corpus "$d/corpus"
	for s in '' -S; do
		for w in 1 5; do
			for c in 1 2 8; do
				brute $s "$w" "$c" 0.7 <"$d/corpus" |
				    cut -f 2- >"$d/want"
				jaccard $s -w "$w" -c "$c" -t 0.7 "$d/corpus" \
				    >"$d/got"
				same_files "$d/want" "$d/got"
				[ "$(wc -l <"$d/got")" -gt 50 ]
			done
		done
	done
}

# --- jaccard: input and output --------------------------------------------

@test "jaccard: files in order, - is stdin, no final newline" {
	printf 'a\tone two three\n' >"$BATS_TEST_TMPDIR/1"
	printf 'b\tone two three' >"$BATS_TEST_TMPDIR/2"
	run -0 sh -c 'printf "c\tOne two three" |
	    jaccard -t 1 "$1" - "$2"' sh "$BATS_TEST_TMPDIR/1" "$BATS_TEST_TMPDIR/2"
	eq "$output" "$(printf 'a\tc\t1.000000\na\tb\t1.000000\nc\tb\t1.000000')"
	run -0 sh -c 'printf "c\tOne two three\nd\tx" | jaccard -s'
	eq "$output" "$(printf 'c\t1\nd\t1')"
}

@test "jaccard: a line without TAB, a missing file: exit 2, no output" {
	run -2 --separate-stderr sh -c 'printf "a\tb c d\nno tab\n" | jaccard -t 0.5'
	eq "$output" ""
	eq "$stderr" "jaccard: <stdin>:2: no TAB"
	run -2 --separate-stderr jaccard -t 0.5 /dev/null "$BATS_TEST_TMPDIR/nosuch"
	eq "$output" ""
	eq "$stderr" "jaccard: $BATS_TEST_TMPDIR/nosuch: No such file or directory"
}

@test "jaccard: a line over 1 MiB" {
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "w%d ", i % 70001
	    print "" }' >"$BATS_TEST_TMPDIR/text"
	[ "$(wc -c <"$BATS_TEST_TMPDIR/text")" -gt 1048576 ]
	run -0 sh -c '{ printf "a\t"; cat "$1"; printf "b\t"; cat "$1"; } |
	    jaccard -t 1' sh "$BATS_TEST_TMPDIR/text"
	eq "$output" "$(printf 'a\tb\t1.000000')"
	run -0 sh -c '{ printf "a\t"; cat "$1"; } | jaccard -s' sh \
	    "$BATS_TEST_TMPDIR/text"
	eq "$output" "$(printf 'a\t70001')"
}

@test "jaccard: writing to /dev/full: exit 2" {
	run -2 --separate-stderr sh -c 'printf "a\tx\nb\tx\n" |
	    jaccard -t 1 >/dev/full'
	eq "$stderr" "jaccard: stdout: No space left on device"
}

# --- prf ------------------------------------------------------------------

@test "prf: unordered pairs counted once, self-pairs ignored" {
	printf 'a\tb\t0.9\nb\ta\nc\td\ne\tf\n' >"$BATS_TEST_TMPDIR/truth"
	printf 'b\ta\nd\tc\t0.5\nx\ty\ny\tx\nz\tz\n' >"$BATS_TEST_TMPDIR/pairs"
	run -0 --separate-stderr prf "$BATS_TEST_TMPDIR/truth" \
	    "$BATS_TEST_TMPDIR/pairs"
	eq "$output" "2 1 1 0.6667 0.6667 0.6667"
	eq "$stderr" ""
	run -0 sh -c 'prf "$1" - <"$2"' sh "$BATS_TEST_TMPDIR/truth" \
	    "$BATS_TEST_TMPDIR/pairs"
	eq "$output" "2 1 1 0.6667 0.6667 0.6667"
}

@test "prf: empty sides and no hit" {
	printf 'a\tb\nc\td\nd\tc\n' >"$BATS_TEST_TMPDIR/truth"
	: >"$BATS_TEST_TMPDIR/empty"
	run -0 prf "$BATS_TEST_TMPDIR/truth" "$BATS_TEST_TMPDIR/empty"
	eq "$output" "0 0 2 1.0000 0.0000 0.0000"
	run -0 prf "$BATS_TEST_TMPDIR/empty" "$BATS_TEST_TMPDIR/truth"
	eq "$output" "0 2 0 0.0000 1.0000 0.0000"
	run -0 prf "$BATS_TEST_TMPDIR/empty" "$BATS_TEST_TMPDIR/empty"
	eq "$output" "0 0 0 1.0000 1.0000 1.0000"
	# "ab c" is not "a bc"; a truth of one, three found, no final newline.
	printf 'ab\tc' >"$BATS_TEST_TMPDIR/pairs"
	printf 'a\tbc\n' >"$BATS_TEST_TMPDIR/truth1"
	run -0 prf "$BATS_TEST_TMPDIR/truth1" "$BATS_TEST_TMPDIR/pairs"
	eq "$output" "0 1 1 0.0000 0.0000 0.0000"
	printf 'bc\ta\nc\tab\nq\tr' >"$BATS_TEST_TMPDIR/pairs"
	run -0 prf "$BATS_TEST_TMPDIR/truth1" "$BATS_TEST_TMPDIR/pairs"
	eq "$output" "1 2 0 0.3333 1.0000 0.5000"
}

@test "prf: usage, a missing file, a line without TAB: exit 2" {
	run -2 --separate-stderr prf "$BATS_TEST_TMPDIR/x"
	eq "$output" ""
	eq "$stderr" "usage: prf truth pairs"
	run -2 --separate-stderr prf "$BATS_TEST_TMPDIR/nosuch" /dev/null
	eq "$output" ""
	eq "$stderr" "prf: $BATS_TEST_TMPDIR/nosuch: No such file or directory"
	printf 'a\tb\n\n' >"$BATS_TEST_TMPDIR/pairs"
	run -2 --separate-stderr prf /dev/null "$BATS_TEST_TMPDIR/pairs"
	eq "$output" ""
	eq "$stderr" "prf: $BATS_TEST_TMPDIR/pairs:2: no TAB"
	run -2 --separate-stderr sh -c 'prf /dev/null /dev/null >/dev/full'
	eq "$stderr" "prf: stdout: No space left on device"
}

@test "prf: a million pairs, half of them true" {
	awk 'BEGIN { for (i = 0; i < 1000000; i++) print "d" i "\td" i + 1 }' \
	    >"$BATS_TEST_TMPDIR/pairs"
	awk -F '\t' 'NR % 2 { print $2 "\t" $1 } !(NR % 2) { print $1 "\tx" $2 }' \
	    "$BATS_TEST_TMPDIR/pairs" >"$BATS_TEST_TMPDIR/truth"
	run -0 prf "$BATS_TEST_TMPDIR/truth" "$BATS_TEST_TMPDIR/pairs"
	eq "$output" "500000 500000 500000 0.5000 0.5000 0.5000"
}

@test "jaccard and prf: the truth scores itself perfect" {
	local d="$BATS_TEST_TMPDIR"
	near_corpus "$d/corpus"
	jaccard -t 0.8 "$d/corpus" >"$d/truth"
	n=$(wc -l <"$d/truth")
	[ "$n" -gt 100 ]
	run -0 prf "$d/truth" "$d/truth"
	eq "$output" "$n 0 0 1.0000 1.0000 1.0000"
	jaccard -t 0.9 "$d/corpus" >"$d/high"
	m=$(wc -l <"$d/high")
	run -0 prf "$d/truth" "$d/high"
	eq "$output" "$m 0 $((n - m)) 1.0000 $(awk -v m="$m" -v n="$n" \
	    'BEGIN { r = m / n; printf "%.4f %.4f", r, 2 * r / (1 + r) }')"
}

# --- bench/editjoin, bench/shortgen: the truth of the edit route ----------

@test "editjoin: every pair at edit similarity t, as sh-dist -v -J edit finds it over all pairs; shortgen: a repost after every other post, the same bytes again" {
	local d="$BATS_TEST_TMPDIR" t
	{
		printf 'a\t你妈妈喊你回家吃饭哦，回家罗回家罗\n'
		printf 'b\tThe cat sat on the mat, and the dog sat on the rug.\n'
		printf 'c\t今天北京的天气很好，适合出去散步。\n'
		printf 'd\tls -l 列出当前目录的文件\n'
		printf 'e\t\n'
		printf 'f\t!!!\n'
	} >"$d/src"
	shortgen -s 3 "$d/src" >"$d/posts"
	eq "$(cut -f 1 "$d/posts" | tr '\n' ' ')" "a a~ b c c~ d e e~ f "
	shortgen -s 3 "$d/src" | cmp - "$d/posts"
	# More reposts of the same posts, and the posts again.
	for t in 1 2 4 5 6; do
		shortgen -s $t "$d/src" | sed "s/~/~$t/"
	done | grep '~' >>"$d/posts"
	for t in 0.5 0.8 0.9; do
		all_pairs "$d/posts" | sh-dist -v "$d/posts" -J edit -a $t |
		    cut -f 1-3 >"$d/want" || true
		[ "$t" != 0.8 ] || [ "$(wc -l <"$d/want")" -gt 10 ]
		# editjoin puts the earlier line first, as all_pairs does.
		run -0 editjoin -t $t "$d/posts"
		eq "$(printf '%s\n' "$output" | LC_ALL=C sort)" "$(LC_ALL=C sort "$d/want")"
	done
	run -2 editjoin -t 2 "$d/posts"
	printf 'no tab\n' >"$d/bad"
	run -2 --separate-stderr editjoin "$d/bad"
	eq "$output" ""
	eq "$stderr" "editjoin: a line without a TAB"
}
