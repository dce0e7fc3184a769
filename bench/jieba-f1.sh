#!/bin/sh
# jieba-f1.sh: how closely sh-tokenize -d cuts Chinese as jieba does.
#
# Both segment the same real text with the same dictionary: jieba with
# jieba.Tokenizer(dictionary=DICT).cut(TEXT, HMM=False), sh-tokenize with
# -d DICT.  Only the cuts inside runs of Han characters are compared:
# the two tools differ by design elsewhere (sh-tokenize folds the text and
# drops punctuation, jieba keeps both and glues Latin letters, digits and
# some symbols to the Han characters next to them).  Method:
#
#   1. Every maximal run of U+4E00..U+9FD5 (jieba's Han range, which
#      folding leaves alone) in the text of each document is a run.
#   2. jieba cuts the whole text of each document (its ordinary use); a
#      run's jieba boundaries are the word ends that fall strictly inside
#      the run, as offsets from its start.
#   3. sh-tokenize -l -w 16 -d DICT reads the runs, one per line; with
#      shingles of 16 words, a run of fewer than 16 words is one feature
#      whose words are its cut, and a longer run is rebuilt from its
#      overlapping shingles.  A run whose rebuilt words do not spell it
#      (a repeated shingle) is counted and left out.
#   4. Over all runs: precision, recall and F1 of sh-tokenize's
#      boundaries against jieba's, and how many runs differ.
#   5. The same with jieba cutting each run alone, as sh-tokenize does:
#      this isolates the algorithm from the context of the runs.
# The first few differing runs are listed, with both cuts.
#
# usage: bench/jieba-f1.sh [corpus.txt]
# Without an operand: zh.txt of bench/corpus.sh in ${TMPDIR:-/tmp}/sh-eval,
# built first if missing.  Needs python3 with jieba (Debian package
# python3-jieba); skipped with a message, exit 0, when it is missing.
# environment: PYTHON (a python3 with jieba; else python3 or
# /usr/bin/python3, whichever has it),
# DICT (/usr/lib/python3/dist-packages/jieba/dict.txt),
# BIN (bin: where sh-tokenize is), SHOW (5: differing runs listed).

set -eu

prog=jieba-f1.sh
bin=${BIN:-bin}
dict=${DICT:-/usr/lib/python3/dist-packages/jieba/dict.txt}
show=${SHOW:-5}

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

[ -x "$bin/sh-tokenize" ] || die "$bin/sh-tokenize not found: build it first"
# The first Python that has jieba: $PYTHON, python3, Debian's python3.
py=
for p in ${PYTHON:-} python3 /usr/bin/python3; do
	if "$p" -c 'import jieba' 2>/dev/null; then
		py=$p
		break
	fi
done
if [ -z "$py" ]; then
	echo "$prog: python3 jieba not installed (python3-jieba): skipped" >&2
	exit 0
fi
[ -r "$dict" ] || die "$dict: cannot read (set DICT)"
if [ $# -eq 0 ]; then
	dir=${TMPDIR:-/tmp}/sh-eval
	if [ ! -s "$dir/zh.txt" ]; then
		sh "$(dirname "$0")/corpus.sh" "$dir" >&2 ||
		    die "cannot build corpora"
	fi
	set -- "$dir/zh.txt"
fi
[ -r "$1" ] || die "$1: cannot read"

work=$(mktemp -d "${TMPDIR:-/tmp}/jieba-f1.XXXXXX") ||
    die "cannot create work directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM

# Runs, one per line, then sh-tokenize's shingles of them.
"$py" - "$1" >"$work/runs" <<'EOF'
import re, sys
han = re.compile('[\u4e00-\u9fd5]+')
with open(sys.argv[1], encoding='utf-8') as f:
    for line in f:
        text = line.rstrip('\n').split('\t', 1)[-1]
        for m in han.finditer(text):
            print(m.group())
EOF
"$bin/sh-tokenize" -l -w 16 -d "$dict" "$work/runs" >"$work/sh" ||
    die "sh-tokenize failed"

"$py" - "$1" "$dict" "$work/runs" "$work/sh" "$show" <<'EOF'
import logging, re, sys
import jieba

corpus, dictpath, runsfile, shfile, show = sys.argv[1:6]
show = int(show)
jieba.setLogLevel(logging.WARNING)
tk = jieba.Tokenizer(dictionary=dictpath)
tk.initialize()
han = re.compile('[\u4e00-\u9fd5]+')

def inner(words, start=0, end=None):
    """Word ends strictly inside [start, end), as offsets from start."""
    b, pos = set(), 0
    for w in words:
        pos += len(w)
        if start < pos < (end if end is not None else pos + 1):
            b.add(pos - start)
    return b

# jieba over whole documents, and over each run alone.
runs, ctx, alone = [], [], []
with open(corpus, encoding='utf-8') as f:
    for line in f:
        text = line.rstrip('\n').split('\t', 1)[-1]
        words = list(tk.cut(text, HMM=False))
        for m in han.finditer(text):
            runs.append(m.group())
            ctx.append(inner(words, m.start(), m.end()))
            alone.append(inner(tk.cut(m.group(), HMM=False),
                               0, len(m.group())))

# sh-tokenize: a run's words from its shingles.
with open(runsfile, encoding='utf-8') as f:
    assert [l.rstrip('\n') for l in f] == runs
sh = [None] * len(runs)
with open(shfile, encoding='utf-8') as f:
    for line in f:
        rid, feats = line.rstrip('\n').split('\t', 1)
        shingles = [t.rsplit('^', 1)[0].split('_') for t in feats.split(' ')]
        words = shingles[0] + [s[-1] for s in shingles[1:]]
        i = int(rid) - 1
        if ''.join(words) == runs[i]:
            sh[i] = words

def cut(run, b):
    return ''.join(c + ('/' if j + 1 in b else '') for j, c in enumerate(run))

def score(ref, name):
    tp = fp = fn = 0
    differ = []
    for i, run in enumerate(runs):
        if sh[i] is None:
            continue
        got = inner(sh[i], 0, len(run))
        tp += len(got & ref[i])
        fp += len(got - ref[i])
        fn += len(ref[i] - got)
        if got != ref[i]:
            differ.append('  jieba %s | sh %s' % (cut(run, ref[i]),
                                                 cut(run, got)))
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    print('%-25s precision %.6f recall %.6f F1 %.6f '
          '(%d boundaries missed, %d extra; %d runs differ)'
          % (name, p, r, f1, fn, fp, len(differ)))
    for d in differ[:show]:
        print(d)

lost = sh.count(None)
print('%s: %d Han runs, %d characters, %d boundaries (jieba); '
      '%d runs not rebuilt from shingles'
      % (corpus, len(runs), sum(map(len, runs)),
         sum(map(len, ctx)), lost))
score(ctx, 'jieba on whole texts:')
score(alone, 'jieba on the runs alone:')
EOF
