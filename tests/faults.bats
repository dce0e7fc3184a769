#!/usr/bin/env bats
# Fault injection: the LD_PRELOAD shim of tests/faults (see its README)
# fails, one at a time, the calls that sh-index build and add make (and
# the merge an add makes, and a build within -S), sh-near's join on disk
# (-S), its index queries and filter (-i, -u -i, -i -K), sh-dist -v's
# feature spill, and sh-fp and sh-dist -v on a compressed file (the
# decompressor's pipes, child and stream; the records -v keeps of it):
# writes, syncs, renames, opens, maps, reads, allocations, stdio writes,
# spawns; memory that runs out for good.  Each run must succeed with the
# output of a run without faults, or exit 2 with one line "PROGRAM: ..."
# on stderr, naming something (or, for add
# -u and delete, exit 3 and one line saying the change is committed,
# the index then the new one); an index must
# then be whole, the old one or the new one, and no file may be left in
# it or in TMPDIR (nor, by a first build that failed, the directory).
# On band indexes that keep their documents' places (build, add and add
# -u -v, delete, merge, expire), the night asked of the index after, its
# documents read where the index says they lie, answers as the old or
# the new index (whichever it is) did given the whole history in -v.
# Each test reports, as a TAP comment, the calls it
# counted and failed.  The tests skip themselves on a sanitizer build
# (its binaries name __asan_init or __ubsan_handle).

load helper

# At most this many injection points a sweep: past it, the first and the
# last 10 calls and an even spread between them.  The sweeps of indexes
# with locations, whose runs are checked by a query too, take fewer
# (MAXPOINTS=40 sweep ...).
MAXPOINTS=150

setup_file() {
	local b
	export F=$BATS_FILE_TMPDIR FAULTS_SKIP=
	# A copy of the binaries: a sweep counts the calls of one build.
	mkdir "$F/bin"
	for b in sh-index sh-near sh-dist sh-fp; do
		cp "$(command -v "$b")" "$F/bin/"
	done
	PATH=$F/bin:$PATH
	# The sanitizers intercept the same functions and bring their own
	# malloc: the shim is for plain builds only.
	for b in sh-index sh-near sh-dist; do
		if LC_ALL=C grep -aq -e __asan_init -e __ubsan_handle \
		    -e __tsan_init -e __msan_init -e libasan -e libubsan \
		    "$F/bin/$b"; then
			FAULTS_SKIP="sanitizer build: fault injection needs a plain build"
			return 0
		fi
	done
	if ! command -v cc >/dev/null 2>&1; then
		FAULTS_SKIP="no cc to build the shim"
		return 0
	fi
	cc -O2 -fPIC -shared -o "$F/inject.so" \
	    "$BATS_TEST_DIRNAME/faults/inject.c" -ldl
	export INJECT=$F/inject.so
	FAULT_COUNT=$F/probe LD_PRELOAD=$INJECT sh-index -V >/dev/null
	if [ ! -s "$F/probe" ]; then
		FAULTS_SKIP="the programs ignore LD_PRELOAD (static?)"
		return 0
	fi

	# Indexes: ix1 of 500 fingerprints, ix2 the same and a segment of 30
	# (an add of 30 to ix1 merges nothing), which an add of 200 merges
	# with both into one.
	rand_fps "$F/base.fp" 500 21
	rand_fps "$F/more.fp" 30 22
	sed -i 's/\tf/\tm/' "$F/more.fp"
	rand_fps "$F/m2.fp" 200 23
	sed -i 's/\tf/\tn/' "$F/m2.fp"
	# Within -S 1M, 25,000 fingerprints make three segments.
	rand_fps "$F/big.fp" 25000 24
	sh-index build "$F/ix1" "$F/base.fp"
	cp -a "$F/ix1" "$F/ix2"
	# Queries of ix1: 2,000 strangers, then its own lines, in batches
	# that grow from 16.
	rand_fps "$F/strangers.fp" 2000 25
	{ sed 's/\tf/\tq/' "$F/strangers.fp"
	    sed 's/\t/\ti/' "$F/base.fp"; } >"$F/q.fp"
	sh-index add "$F/ix2" "$F/more.fp"

	# The join: 12,000 fingerprints alone and 1000 groups of 8 within 2
	# bits of each other, 28,000 pairs: within -S 1M both the tables and
	# the pairs are sorted in several runs on disk.
	awk 'BEGIN {
		srand(41)
		for (i = 1; i <= 13000; i++) {
			s = ""
			for (j = 0; j < 16; j++)
				s = s substr("0123456789abcdef", int(rand() * 16) + 1, 1)
			for (c = 0; c < (i <= 1000 ? 8 : 1); c++) {
				t = s
				for (f = c % 3; f > 0; f--) {
					p = int(rand() * 16) + 1
					t = substr(t, 1, p - 1) (substr(t, p, 1) == "0" ? \
					    "1" : "0") substr(t, p + 1)
				}
				printf "%s\tg%dc%d\n", t, i, c
			}
		}
	}' >"$F/near.fp"

	# Verification: 1000 documents of about 160 features (1.3 MB of
	# them, all spilled within -S 1M), each paired with its source and
	# with one other.
	near_copies "$F/docs.tsv" 250 7
	awk -F '\t' '{ id[NR] = $1 } END {
		for (i = 1; i <= NR; i++) {
			if (i % 4 != 1)
				print id[i - (i - 1) % 4] "\t" id[i]
			print id[i] "\t" id[(i * 37) % NR + 1]
		}
	}' "$F/docs.tsv" >"$F/pairs"

	# Band tables: bx1 of 500 sketch lines, bx2 the same and a segment
	# of 30, which an add of 200 merges with both; queries, all 1000.
	sh-fp -B "$F/docs.tsv" >"$F/docs.fpb"
	gzip -c "$F/docs.tsv" >"$F/docs.tsv.gz"
	head -n 500 "$F/docs.fpb" >"$F/bbase.fpb"
	sed -n 501,530p "$F/docs.fpb" >"$F/bmore.fpb"
	sed -n 531,730p "$F/docs.fpb" >"$F/bm2.fpb"
	sh-index build -a 0.8 "$F/bx1" "$F/bbase.fpb"
	cp -a "$F/bx1" "$F/bx2"
	sh-index add "$F/bx2" "$F/bmore.fpb"

	# Deletes: ix3 and bx3 are ix2 and bx2 with IDs of both segments
	# deleted; more of them go, from segments with deletions and
	# without.
	cp -a "$F/ix2" "$F/ix3"
	cp -a "$F/bx2" "$F/bx3"
	{ echo f3; echo m4; } | sh-index delete "$F/ix3" >/dev/null
	cut -f 2 "$F/bbase.fpb" | sed -n 4p | sh-index delete "$F/bx3" \
	    >/dev/null
	{ awk 'NR % 9 == 0 { print $2 }' "$F/base.fp"; echo m2; } \
	    >"$F/gone.ids"
	{ cut -f 2 "$F/bbase.fpb" | awk 'NR % 9 == 0'
	  cut -f 2 "$F/bmore.fpb" | sed -n 2p; } >"$F/bgone.ids"

	# Expiry: ix4 of two segments added at 1000 and 2000; ix5 the same
	# merged with a batch added at 3000.
	sh-index build -T @1000 "$F/ix4" "$F/base.fp"
	sh-index add -T @2000 "$F/ix4" "$F/more.fp"
	cp -a "$F/ix4" "$F/ix5"
	sh-index add -T @3000 "$F/ix5" "$F/m2.fp"

	# Band tables with the documents' places (sh-index build and add
	# -v): an archive of 120 documents in lh1.tsv (60), lh2.tsv.gz (30,
	# a gzip member each 10) and lh3.tsv (30); the night, 40 near
	# copies of them.  lx1 holds lh1 and lh2; lx2 lx1 and lh3, merged
	# into one segment; lx3 lx2 and the night's new pages (add -u -v), a
	# segment of their own, with an ID of each segment deleted; lx4 the
	# archive added at 1000, 2000 and 3000, merged.
	near_copies "$F/ldocs" 40 31
	awk 'NR % 4' "$F/ldocs" >"$F/larch"
	awk 'NR % 4 == 0' "$F/ldocs" >"$F/lnight.tsv"
	sed -n 1,60p "$F/larch" >"$F/lh1.tsv"
	: >"$F/lh2.tsv.gz"
	for i in 61 71 81; do
		sed -n "$i,$((i + 9))p" "$F/larch" | gzip -c >>"$F/lh2.tsv.gz"
	done
	sed -n '91,$p' "$F/larch" >"$F/lh3.tsv"
	for i in lh1.tsv lh2.tsv.gz lh3.tsv lnight.tsv; do
		sh-fp -B "$F/$i" >"$F/${i%%.*}.fpb"
	done
	cat "$F/lh1.fpb" "$F/lh2.fpb" >"$F/lh12.fpb"
	zcat -f "$F/lh1.tsv" "$F/lh2.tsv.gz" "$F/lh3.tsv" >"$F/lhist"
	sh-index build -a 0.8 -v "$F/lh1.tsv" -v "$F/lh2.tsv.gz" "$F/lx1" \
	    "$F/lh12.fpb"
	cp -a "$F/lx1" "$F/lx2"
	sh-index add -v "$F/lh3.tsv" "$F/lx2" "$F/lh3.fpb"
	cp -a "$F/lx2" "$F/lx3"
	sh-index add -u -v "$F/lnight.tsv" "$F/lx3" "$F/lnight.fpb" \
	    >"$F/ladded"
	{ echo d3c1; head -n 1 "$F/ladded"; } | sh-index delete "$F/lx3" \
	    >/dev/null
	{ cut -f 2 "$F/lh12.fpb" "$F/lh3.fpb" | awk 'NR % 9 == 0'
	  sed -n 2p "$F/ladded"; } >"$F/lgone.ids"
	sh-index build -T @1000 -a 0.8 -v "$F/lh1.tsv" "$F/lx4" "$F/lh1.fpb"
	sh-index add -T @2000 -v "$F/lh2.tsv.gz" "$F/lx4" "$F/lh2.fpb"
	sh-index add -T @3000 -v "$F/lh3.tsv" "$F/lx4" "$F/lh3.fpb"
}

setup() {
	[ -z "$FAULTS_SKIP" ] || skip "$FAULTS_SKIP"
	PATH=$F/bin:$PATH
	W=$BATS_TEST_TMPDIR
	export TMPDIR=$W/tmp
}

# op NAME: the operation, as CMD (its program first), the index IX it
# writes (none for a filter) and the index START it starts from (none:
# there is no index yet); LQ set for an index of band tables with
# locations, whose night (lquery) is then asked of it too.
op() {
	IX= START= LQ= ZOUT=
	case $1 in
	build)	IX=$W/ix CMD=(sh-index build "$W/ix" "$F/base.fp") ;;
	replace) IX=$W/ix START=$F/ix1
		CMD=(sh-index build -O "$W/ix" "$F/m2.fp") ;;
	budget)	IX=$W/ix CMD=(sh-index build -S 1M "$W/ix" "$F/big.fp") ;;
	add)	IX=$W/ix START=$F/ix1 CMD=(sh-index add "$W/ix" "$F/more.fp") ;;
	merge)	IX=$W/ix START=$F/ix2 CMD=(sh-index add "$W/ix" "$F/m2.fp") ;;
	join)	CMD=(sh-near -j 1 -S 1M "$F/near.fp") ;;
	query)	CMD=(sh-near -i "$F/ix1" -k 4 "$F/q.fp") ;;
	verify)	CMD=(sh-index verify "$F/ix2") ;;
	loaded)	CMD=(sh-near -i "$F/ix2" -K -k 4 "$F/q.fp") ;;
	filter)	CMD=(sh-near -u -i "$F/ix1" "$F/q.fp") ;;
	spill)	CMD=(sh-dist -v "$F/docs.tsv" -S 1M "$F/pairs") ;;
	zfp)	CMD=(sh-fp "$F/docs.tsv.gz") ;;
	zspill)	CMD=(sh-dist -v "$F/docs.tsv.gz" -S 1M "$F/pairs") ;;
	zclean)	ZOUT=$W/kept CMD=(sh-near -g -v "$F/docs.tsv.gz" -a 0.8 \
		    -Z "$W/kept" "$F/docs.fpb") ;;
	bbuild)	IX=$W/ix CMD=(sh-index build -a 0.8 "$W/ix" "$F/bbase.fpb") ;;
	bmerge)	IX=$W/ix START=$F/bx2
		CMD=(sh-index add "$W/ix" "$F/bm2.fpb") ;;
	bquery)	CMD=(sh-near -i "$F/bx2" -v "$F/docs.tsv" -a 0.8 "$F/docs.fpb") ;;
	bfilter) CMD=(sh-near -u -i "$F/bx2" "$F/docs.fpb") ;;
	firsts)	CMD=(sh-near -u -j 1 -S 1M -v "$F/docs.tsv" -a 0.8 \
		    "$F/docs.fpb") ;;
	delete)	IX=$W/ix START=$F/ix3
		CMD=(sh-index delete "$W/ix" "$F/gone.ids") ;;
	compact) IX=$W/ix START=$F/ix3 CMD=(sh-index merge "$W/ix") ;;
	dmerge)	IX=$W/ix START=$F/ix3 CMD=(sh-index add "$W/ix" "$F/m2.fp") ;;
	dquery)	CMD=(sh-near -i "$F/ix3" -k 4 "$F/q.fp") ;;
	bdelete) IX=$W/ix START=$F/bx3
		CMD=(sh-index delete "$W/ix" "$F/bgone.ids") ;;
	bcompact) IX=$W/ix START=$F/bx3 CMD=(sh-index merge "$W/ix") ;;
	expire)	IX=$W/ix START=$F/ix5
		CMD=(sh-index expire -o @2500 "$W/ix") ;;
	expwhole) IX=$W/ix START=$F/ix4
		CMD=(sh-index expire -o @1500 "$W/ix") ;;
	lbuild)	IX=$W/ix LQ=1 CMD=(sh-index build -a 0.8 -v "$F/lh1.tsv" \
		    -v "$F/lh2.tsv.gz" "$W/ix" "$F/lh12.fpb") ;;
	lmerge)	IX=$W/ix START=$F/lx1 LQ=1
		CMD=(sh-index add -v "$F/lh3.tsv" "$W/ix" "$F/lh3.fpb") ;;
	laddu)	IX=$W/ix START=$F/lx2 LQ=1 CMD=(sh-index add -u -v \
		    "$F/lnight.tsv" "$W/ix" "$F/lnight.fpb") ;;
	ldelete) IX=$W/ix START=$F/lx3 LQ=1
		CMD=(sh-index delete "$W/ix" "$F/lgone.ids") ;;
	lcompact) IX=$W/ix START=$F/lx3 LQ=1 CMD=(sh-index merge "$W/ix") ;;
	lexpire) IX=$W/ix START=$F/lx4 LQ=1
		CMD=(sh-index expire -o @1500 "$W/ix") ;;
	lquery)	CMD=(sh-near -i "$F/lx3" -v "$F/lnight.tsv" -a 0.8 \
		    "$F/lnight.fpb") ;;
	esac
}

# lquery IX [DOCS ...]: the night asked of index IX and verified, its
# documents read from lnight.tsv, then DOCS, then where IX says they lie.
lquery() {
	local ix=$1 a=() f

	shift
	for f in "$@"; do
		a+=(-v "$f")
	done
	sh-near -i "$ix" -v "$F/lnight.tsv" "${a[@]}" -a 0.8 "$F/lnight.fpb"
}

# The state a run starts from.
prepare() {
	rm -rf "$W/ix" "$TMPDIR"
	mkdir "$TMPDIR"
	[ -z "$START" ] || cp -a "$START" "$W/ix"
}

# points CALLS: the calls to fail, 1 to CALLS or a sample of MAXPOINTS.
points() {
	awk -v c="$1" -v m="$MAXPOINTS" 'BEGIN {
		if (c <= m) {
			for (i = 1; i <= c; i++)
				print i
			exit
		}
		for (i = 1; i <= 10; i++)
			print i
		k = m - 20
		for (j = 1; j <= k; j++)
			print 10 + int(j * (c - 20) / (k + 1))
		for (i = c - 9; i <= c; i++)
			print i
	}'
}

# check N RC: what is wrong with the run that failed call N and exited
# RC, if anything, on one line; nothing when all is well.
check() {
	local n=$1 rc=$2 why= lines f
	if [ "$rc" -eq 0 ]; then
		cmp -s "$W/out" "$W/ref.out" || why="$why; exit 0 with other output"
		[ -z "$ZOUT" ] || cmp -s "$ZOUT" "$W/ref.z" ||
		    why="$why; exit 0 with another -Z file"
		[ ! -s "$W/err" ] || why="$why; exit 0 with a diagnostic"
	elif [ "$rc" -eq 2 ]; then
		mapfile -t lines <"$W/err"
		# An input file that cannot be read is named, then why the
		# index was not written (sh-index(1), DIAGNOSTICS).
		if [ "${#lines[@]}" -eq 2 ] && [ -n "$IX" ] &&
		    [ "${lines[1]}" = "sh-index: $IX: not written: the input has errors" ]; then
			unset 'lines[1]'
		fi
		if [ "${#lines[@]}" -ne 1 ]; then
			why="$why; ${#lines[@]} lines on stderr"
		elif [[ ${lines[0]} != "${CMD[0]}: "?* ]]; then
			why="$why; diagnostic not of the form ${CMD[0]}: ..."
		elif [[ ${lines[0]} == "${CMD[0]}: : "* ]]; then
			why="$why; a diagnostic of an empty name"
		elif [ -n "$MEM" ] && [[ ${lines[0]} != *": out of memory" &&
		    ${lines[0]} != *": Cannot allocate memory" ]]; then
			why="$why; a want of memory not told as one"
		fi
	elif [ "$rc" -eq 3 ]; then
		# add -u and delete: committed, then what came after failed
		# (sh-index(1), EXIT STATUS); the index must be the new one.
		mapfile -t lines <"$W/err"
		if [ "${#lines[@]}" -ne 1 ] ||
		    [[ ${lines[0]} != "${CMD[0]}: "*": committed"* ]]; then
			why="$why; exit 3 without one line saying committed"
		fi
	else
		why="$why; exit $rc"
	fi
	if [ "$rc" -eq 3 ] && { [ -z "$IX" ] ||
	    ! sh-index dump "$IX" 2>/dev/null | cmp -s - "$W/new.dump"; }; then
		why="$why; exit 3 but not the new index"
	fi
	if [ -n "$IX" ] && [ -f "$IX/MANIFEST" ]; then
		sh-index verify "$IX" 2>/dev/null || why="$why; verify fails"
		if ! sh-index dump "$IX" >"$W/dump" 2>/dev/null; then
			why="$why; dump fails"
		elif cmp -s "$W/dump" "$W/new.dump"; then
			[ -z "$LQ" ] || lquery "$IX" 2>/dev/null |
			    cmp -s - "$W/new.q" ||
			    why="$why; the night asked of the new index answers otherwise"
		elif [ -n "$START" ] && cmp -s "$W/dump" "$W/old.dump"; then
			[ "$rc" -ne 0 ] || why="$why; exit 0 but the old index"
			[ -z "$LQ" ] || lquery "$IX" 2>/dev/null |
			    cmp -s - "$W/old.q" ||
			    why="$why; the night asked of the old index answers otherwise"
		else
			why="$why; the index is neither the old nor the new one"
		fi
	elif [ -n "$IX" ] && { [ -n "$START" ] || [ "$rc" -eq 0 ]; }; then
		why="$why; no MANIFEST"
	elif [ -n "$IX" ] && [ -e "$IX" ]; then
		# A first build that fails removes the directory it made.
		why="$why; left by a failed build: $IX holding $(ls -A "$IX" |
		    tr '\n' ' ')"
	fi
	if [ -n "$IX" ] && [ -d "$IX" ]; then
		# Only LOCK, MANIFEST and the segments it names; and when the
		# new MANIFEST is in place but its directory could not be
		# synced (exit 2), the old one's, which a crash could bring
		# back: the next writer removes them.
		f=$( { echo LOCK; echo MANIFEST; [ ! -f "$IX/MANIFEST" ] ||
		    awk 'NR > 2 && $1 != "end" { print $1; print $4
			    print "tim-" substr($1, 5) }' \
			"$IX/MANIFEST"
		    if [ "$rc" -ge 2 ] && [ -n "$START" ] &&
			cmp -s "$W/dump" "$W/new.dump"; then
			awk 'NR > 2 && $1 != "end" { print $1; print $4
			    print "tim-" substr($1, 5) }' \
			    "$START/MANIFEST"
		    fi; } |
		    grep -vxF -f - <(ls -A "$IX") | tr '\n' ' ')
		[ -z "$f" ] || why="$why; left in the index: $f"
	fi
	f=$(ls -A "$TMPDIR" | tr '\n' ' ')
	[ -z "$f" ] || why="$why; left in TMPDIR: $f"
	[ -n "$why" ] || return 0
	printf 'FAULT_AT=%s (%s): %s; stderr: %s\n' "$n" \
	    "$(cut -d ' ' -f 2- "$W/log" 2>/dev/null | head -n 1)" \
	    "${why#; }" "$(head -n 2 "$W/err" | tr '\n' '|')"
}

# sweep OP [VAR=VALUE ...]: run OP without the shim, then once under it
# with the settings given (FAULT_CALLS, FAULT_ERRNO, FAULT_FROM,
# FAULT_STICKY) to count the calls, then once failing each call in turn
# (or a sample); fail listing the bad runs.
sweep() {
	local name=$1 calls n rc swept=0
	shift
	# Allocations failed: a failure must say so.
	MEM=
	[[ " $* " != *" FAULT_CALLS=malloc "* ]] || MEM=1
	op "$name"
	prepare
	"${CMD[@]}" >"$W/ref.out" 2>"$W/ref.err"
	[ -z "$ZOUT" ] || cp "$ZOUT" "$W/ref.z"
	[ -z "$IX" ] || sh-index dump "$IX" >"$W/new.dump"
	[ -z "$START" ] || sh-index dump "$START" >"$W/old.dump"
	if [ -n "$LQ" ]; then
		# The night's answers, its documents read where the index
		# says they lie, are those given the whole history; of the
		# old index and of the new.
		sh-index verify "$IX"
		lquery "$IX" "$F/lhist" >"$W/new.q"
		lquery "$IX" | same_files "$W/new.q" -
		[ -s "$W/new.q" ]
		if [ -n "$START" ]; then
			lquery "$START" "$F/lhist" >"$W/old.q"
			lquery "$START" | same_files "$W/old.q" -
		fi
	fi
	prepare
	env "$@" FAULT_COUNT="$W/count" LD_PRELOAD="$INJECT" "${CMD[@]}" \
	    >"$W/out" 2>"$W/err"
	same_files "$W/ref.out" "$W/out"
	calls=$(head -n 1 "$W/count")
	: >"$W/bad"
	for n in $(points "$calls"); do
		prepare
		rm -f "$W/log"
		rc=0
		env "$@" FAULT_AT="$n" FAULT_LOG="$W/log" LD_PRELOAD="$INJECT" \
		    "${CMD[@]}" >"$W/out" 2>"$W/err" || rc=$?
		check "$n" "$rc" >>"$W/bad"
		swept=$((swept + 1))
	done
	printf '# %s (%s): %s calls, %s failed in turn, %s bad\n' \
	    "${BATS_TEST_DESCRIPTION%%:*}" "$*" "$calls" "$swept" \
	    "$(grep -c . "$W/bad")" >&3
	[ "$calls" -gt 0 ]
	if [ -s "$W/bad" ]; then
		head -n 30 "$W/bad"
		return 1
	fi
}

IO=FAULT_CALLS=open,mkdir,fsync,rename,close,mmap,ftruncate

@test "sh-index build: each write fails (ENOSPC)" {
	sweep build FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-index build: the disk is full from each write on" {
	sweep build FAULT_CALLS=write FAULT_ERRNO=ENOSPC FAULT_STICKY=1
}

@test "sh-index build: each write is short" {
	sweep build FAULT_ERRNO=short
}

@test "sh-index build: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep build "$IO" FAULT_ERRNO=EIO
}

@test "sh-index build: each allocation of the program fails" {
	sweep build FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-index build: memory runs out from each allocation on" {
	sweep build FAULT_CALLS=malloc FAULT_STICKY=1
}

@test "sh-index build: each allocation in the C library fails" {
	sweep build FAULT_CALLS=malloc FAULT_FROM=lib
}

@test "sh-index build -O: each write fails (ENOSPC)" {
	sweep replace FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-index build -O: the disk is full from each write on" {
	sweep replace FAULT_CALLS=write FAULT_ERRNO=ENOSPC FAULT_STICKY=1
}

@test "sh-index build -O: each write is short" {
	sweep replace FAULT_ERRNO=short
}

@test "sh-index build -O: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep replace "$IO" FAULT_ERRNO=EIO
}

@test "sh-index build -O: each allocation of the program fails" {
	sweep replace FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-index build -O: each allocation in the C library fails" {
	sweep replace FAULT_CALLS=malloc FAULT_FROM=lib
}

@test "sh-index build -S 1M: each write fails (ENOSPC)" {
	sweep budget FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-index add: each write fails (ENOSPC)" {
	sweep add FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-index add: the disk is full from each write on" {
	sweep add FAULT_CALLS=write FAULT_ERRNO=ENOSPC FAULT_STICKY=1
}

@test "sh-index add: each write is short" {
	sweep add FAULT_ERRNO=short
}

@test "sh-index add: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep add "$IO" FAULT_ERRNO=EIO
}

@test "sh-index add: each allocation of the program fails" {
	sweep add FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-index add: memory runs out from each allocation on" {
	sweep add FAULT_CALLS=malloc FAULT_STICKY=1
}

@test "sh-index verify: memory runs out from each allocation on" {
	sweep verify FAULT_CALLS=malloc FAULT_STICKY=1
}

@test "sh-index add: each allocation in the C library fails" {
	sweep add FAULT_CALLS=malloc FAULT_FROM=lib
}

@test "sh-index add, merging: each write fails (ENOSPC)" {
	sweep merge FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-index add, merging: the disk is full from each write on" {
	sweep merge FAULT_CALLS=write FAULT_ERRNO=ENOSPC FAULT_STICKY=1
}

@test "sh-index add, merging: each write is short" {
	sweep merge FAULT_ERRNO=short
}

@test "sh-index add, merging: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep merge "$IO" FAULT_ERRNO=EIO
}

@test "sh-index add, merging: each mmap fails (ENOMEM)" {
	sweep merge FAULT_CALLS=mmap FAULT_ERRNO=ENOMEM
}

@test "sh-index add, merging: each allocation of the program fails" {
	sweep merge FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-index add, merging: each allocation in the C library fails" {
	sweep merge FAULT_CALLS=malloc FAULT_FROM=lib
}

@test "sh-index build -a: each write fails (ENOSPC)" {
	sweep bbuild FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-index add, band tables merging: each write fails (ENOSPC)" {
	sweep bmerge FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-index add, band tables merging: each write is short" {
	sweep bmerge FAULT_ERRNO=short
}

@test "sh-index add, band tables merging: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep bmerge "$IO" FAULT_ERRNO=EIO
}

@test "sh-index add, band tables merging: each allocation of the program fails" {
	sweep bmerge FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-near -i, band tables: each allocation of the program fails" {
	sweep bquery FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-near -i, band tables: each map of a segment fails (ENOMEM)" {
	sweep bquery FAULT_CALLS=mmap FAULT_ERRNO=ENOMEM
}

@test "sh-near -u -i, band tables: each allocation of the program fails" {
	sweep bfilter FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-index delete: each write fails (ENOSPC)" {
	sweep delete FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-index delete: each write is short" {
	sweep delete FAULT_ERRNO=short
}

@test "sh-index delete: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep delete "$IO" FAULT_ERRNO=EIO
}

@test "sh-index delete: each allocation of the program fails" {
	sweep delete FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-index merge: each write fails (ENOSPC)" {
	sweep compact FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-index merge: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep compact "$IO" FAULT_ERRNO=EIO
}

@test "sh-index add, merging segments with deletions: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep dmerge "$IO" FAULT_ERRNO=EIO
}

@test "sh-index add, merging segments with deletions: each allocation of the program fails" {
	sweep dmerge FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-near -i, deletions: each allocation of the program fails" {
	sweep dquery FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-index delete, band tables: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep bdelete "$IO" FAULT_ERRNO=EIO
}

@test "sh-index merge, band tables: each write is short" {
	sweep bcompact FAULT_ERRNO=short
}

@test "sh-index merge, band tables: each allocation of the program fails" {
	sweep bcompact FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-index expire: each write fails (ENOSPC)" {
	sweep expire FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-index expire: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep expire "$IO" FAULT_ERRNO=EIO
}

@test "sh-index expire: each allocation of the program fails" {
	sweep expire FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-index expire, a segment whole: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep expwhole "$IO" FAULT_ERRNO=EIO
}

@test "sh-index build -a -v, locations: each write fails (ENOSPC)" {
	sweep lbuild FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-index build -a -v, locations: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep lbuild "$IO" FAULT_ERRNO=EIO
}

@test "sh-index add -v, locations merging: each write is short" {
	MAXPOINTS=40 sweep lmerge FAULT_ERRNO=short
}

@test "sh-index add -v, locations merging: each allocation of the program fails" {
	MAXPOINTS=40 sweep lmerge FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-index add -u -v, locations: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	MAXPOINTS=40 sweep laddu "$IO" FAULT_ERRNO=EIO
}

@test "sh-index add -u -v, locations: each read of the archive or the index fails (EIO)" {
	MAXPOINTS=40 sweep laddu FAULT_CALLS=pread FAULT_ERRNO=EIO
}

@test "sh-index add -u -v, locations: each allocation of the program fails" {
	MAXPOINTS=40 sweep laddu FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-index delete, locations: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep ldelete "$IO" FAULT_ERRNO=EIO
}

@test "sh-index merge, locations and deletions: each write fails (ENOSPC)" {
	MAXPOINTS=40 sweep lcompact FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-index expire, locations: each open, mkdir, fsync, rename, close, mmap fails (EIO)" {
	sweep lexpire "$IO" FAULT_ERRNO=EIO
}

@test "sh-near -i -v, the archive read where the index says: each allocation of the program fails" {
	lquery "$F/lx3" "$F/lhist" >"$W/want"
	lquery "$F/lx3" | same_files "$W/want" -
	[ -s "$W/want" ]
	MAXPOINTS=40 sweep lquery FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-near -i -v, the archive read where the index says: each read and map fails (EIO)" {
	MAXPOINTS=40 sweep lquery FAULT_CALLS=pread,mmap FAULT_ERRNO=EIO
}

@test "sh-near -S 1M: each stdio write fails, temporary files and stdout (ENOSPC)" {
	sweep join FAULT_CALLS=stdio FAULT_ERRNO=ENOSPC
}

@test "sh-near -S 1M: the disk is full from each stdio write on" {
	sweep join FAULT_CALLS=stdio FAULT_ERRNO=ENOSPC FAULT_STICKY=1
}

@test "sh-near -u -v -S 1M: each stdio write fails, the lines' temporary files and stdout (ENOSPC)" {
	sweep firsts FAULT_CALLS=stdio FAULT_ERRNO=ENOSPC
}

@test "sh-near -u -v -S 1M: each temporary file cannot be made, each mapping fails (EIO)" {
	sweep firsts "$IO" FAULT_ERRNO=EIO
}

@test "sh-near -S 1M: each temporary file cannot be made (EIO)" {
	sweep join "$IO" FAULT_ERRNO=EIO
}

@test "sh-near -S 1M: each allocation of the program fails" {
	sweep join FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-near -S 1M: each allocation in the C library fails" {
	sweep join FAULT_CALLS=malloc FAULT_FROM=lib
}

@test "sh-near -S 1M: memory runs out from each allocation on" {
	sweep join FAULT_CALLS=malloc FAULT_STICKY=1
}

@test "sh-near -i: memory runs out from each allocation on" {
	sweep query FAULT_CALLS=malloc FAULT_STICKY=1
}

@test "sh-near -i: each allocation of the program fails" {
	sweep query FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-near -i: each allocation in the C library fails" {
	sweep query FAULT_CALLS=malloc FAULT_FROM=lib
}

@test "sh-near -i: each map of a segment fails (ENOMEM)" {
	sweep query FAULT_CALLS=mmap FAULT_ERRNO=ENOMEM
}

@test "sh-near -i -K: each read and map of a segment fails (EIO)" {
	sweep loaded FAULT_CALLS=pread,mmap
}

@test "sh-near -i: each stdio write fails (ENOSPC)" {
	sweep query FAULT_CALLS=stdio FAULT_ERRNO=ENOSPC
}

@test "sh-near -u -i: each allocation of the program fails" {
	sweep filter FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-near -u -i: each stdio write fails (ENOSPC)" {
	sweep filter FAULT_CALLS=stdio FAULT_ERRNO=ENOSPC
}

@test "sh-dist -v -S 1M: each write of the spill fails (ENOSPC)" {
	sweep spill FAULT_CALLS=write FAULT_ERRNO=ENOSPC
}

@test "sh-dist -v -S 1M: the disk is full from each write of the spill on" {
	sweep spill FAULT_CALLS=write FAULT_ERRNO=ENOSPC FAULT_STICKY=1
}

@test "sh-dist -v -S 1M: each write of the spill is short" {
	sweep spill FAULT_ERRNO=short
}

@test "sh-dist -v -S 1M: the spill file cannot be made (EIO)" {
	sweep spill "$IO" FAULT_ERRNO=EIO
}

@test "sh-dist -v -S 1M: each stdio write fails (ENOSPC)" {
	sweep spill FAULT_CALLS=stdio FAULT_ERRNO=ENOSPC
}

@test "sh-dist -v -S 1M: each allocation of the program fails" {
	sweep spill FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-dist -v -S 1M: each allocation in the C library fails" {
	sweep spill FAULT_CALLS=malloc FAULT_FROM=lib
}

@test "sh-fp FILE.gz: each pipe, child, thread or stream of the decompressor fails" {
	sweep zfp FAULT_CALLS=spawn
}

@test "sh-fp FILE.gz: each open, close fails (EIO)" {
	sweep zfp FAULT_CALLS=open,close
}

@test "sh-fp FILE.gz: each stdio write fails (ENOSPC)" {
	sweep zfp FAULT_CALLS=stdio FAULT_ERRNO=ENOSPC
}

@test "sh-fp FILE.gz: each allocation of the program fails" {
	sweep zfp FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-dist -v FILE.gz -S 1M: each write of the kept records or the spill fails (ENOSPC)" {
	sweep zspill FAULT_CALLS=write,stdio FAULT_ERRNO=ENOSPC
}

@test "sh-dist -v FILE.gz -S 1M: the disk is full from each write on" {
	sweep zspill FAULT_CALLS=write,stdio FAULT_ERRNO=ENOSPC FAULT_STICKY=1
}

@test "sh-dist -v FILE.gz -S 1M: each pipe, child, thread or stream of the decompressor fails" {
	sweep zspill FAULT_CALLS=spawn
}

@test "sh-dist -v FILE.gz -S 1M: each read of the kept records fails (EIO)" {
	sweep zspill FAULT_CALLS=pread FAULT_ERRNO=EIO
}

@test "sh-dist -v FILE.gz -S 1M: each allocation of the program fails" {
	sweep zspill FAULT_CALLS=malloc FAULT_FROM=prog
}

@test "sh-near -g -v FILE.gz -Z: each write of the decoded copy or the records fails (ENOSPC)" {
	sweep zclean FAULT_CALLS=write,stdio FAULT_ERRNO=ENOSPC
}

@test "sh-near -g -v FILE.gz -Z: the disk is full from each write on" {
	sweep zclean FAULT_CALLS=write,stdio FAULT_ERRNO=ENOSPC FAULT_STICKY=1
}

@test "sh-near -g -v FILE.gz -Z: each pipe, child, thread or stream of the decompressor fails" {
	sweep zclean FAULT_CALLS=spawn
}

@test "sh-near -g -v FILE.gz -Z: each open, close fails (EIO)" {
	sweep zclean FAULT_CALLS=open,close
}

@test "sh-near -g -v FILE.gz -Z: each allocation of the program fails" {
	sweep zclean FAULT_CALLS=malloc FAULT_FROM=prog
}
