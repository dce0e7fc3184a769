# sh: near-duplicate detection with simhash.  POSIX make.

PREFIX = /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
DATADIR = $(PREFIX)/share/sh

CC = cc
CFLAGS = -O2 -g
LDFLAGS =
# Required flags stay apart from CFLAGS so a user's CFLAGS never drop them.
SH_CFLAGS = -std=c99 -D_DEFAULT_SOURCE -Wall -Wextra -pedantic -Ilib
SH_LIBS = -lm -lpthread

# The library, layer by layer (lib/README).
BASE_HDR = lib/base/crc32.h lib/base/errors.h lib/base/fpval.h lib/base/grow.h \
	lib/base/hash.h lib/base/hmap.h lib/base/io.h lib/base/lines.h \
	lib/base/num.h lib/base/progress.h lib/base/radix.h lib/base/shard.h \
	lib/base/sketch.h lib/base/utf8.h lib/base/version.h lib/base/xsort.h \
	lib/base/zmap.h lib/base/zpipe.h
TEXT_HDR = lib/text/charset.h lib/text/detect.h lib/text/docmap.h lib/text/fold.h \
	lib/text/html.h lib/text/json.h lib/text/maintext.h lib/text/recloc.h lib/text/record.h lib/text/recfield.h lib/text/recwrite.h \
	lib/text/stoplist.h lib/text/unicode.h
FEAT_HDR = lib/feat/bag.h lib/feat/df.h lib/feat/dict.h lib/feat/idf.h \
	lib/feat/stopset.h lib/feat/stopword.h lib/feat/tokenize.h \
	lib/feat/toklist.h lib/feat/weight.h
FP_HDR = lib/fp/charsketch.h lib/fp/edit.h lib/fp/fingerprint.h \
	lib/fp/fpbatch.h lib/fp/minhash.h lib/fp/simhash.h lib/fp/similar.h
NEAR_HDR = lib/near/bands.h lib/near/classes.h lib/near/cluster.h lib/near/dedup.h lib/near/fpline.h \
	lib/near/fplist.h lib/near/fpset.h lib/near/linestore.h lib/near/fpstore.h lib/near/join.h \
	lib/near/model.h lib/near/pairline.h lib/near/plan.h
INDEX_HDR = lib/index/deletes.h lib/index/index.h lib/index/times.h lib/index/ixfile.h lib/index/segint.h lib/index/segment.h \
	lib/index/writer.h
VERIFY_HDR = lib/verify/decisions.h lib/verify/explain.h lib/verify/figures.h lib/verify/groups.h lib/verify/keep.h lib/verify/locate.h lib/verify/match.h \
	lib/verify/verify.h lib/verify/vfilter.h
BASE_OBJ = lib/base/crc32.o lib/base/errors.o lib/base/fpval.o lib/base/grow.o \
	lib/base/hash.o lib/base/hmap.o lib/base/io.o lib/base/lines.o \
	lib/base/num.o lib/base/radix.o lib/base/shard.o lib/base/sketch.o \
	lib/base/threads.o lib/base/utf8.o lib/base/xsort.o lib/base/zmap.o \
	lib/base/zpipe.o
TEXT_OBJ = lib/text/charset.o lib/text/detect.o lib/text/docmap.o lib/text/fold.o \
	lib/text/html.o lib/text/json.o lib/text/maintext.o lib/text/recloc.o lib/text/record.o lib/text/recfield.o lib/text/recwrite.o \
	lib/text/stoplist.o lib/text/t2s.o \
	lib/text/unitab.o
FEAT_OBJ = lib/feat/bag.o lib/feat/df.o lib/feat/dict.o lib/feat/idf.o \
	lib/feat/stopset.o lib/feat/stopword.o lib/feat/tokenize.o \
	lib/feat/toklist.o lib/feat/weight.o
FP_OBJ = lib/fp/charsketch.o lib/fp/edit.o lib/fp/fingerprint.o \
	lib/fp/fpbatch.o lib/fp/minhash.o lib/fp/simhash.o lib/fp/similar.o
NEAR_OBJ = lib/near/bands.o lib/near/classes.o lib/near/cluster.o lib/near/dedup.o lib/near/fpline.o lib/near/fpload.o \
	lib/near/fplist.o lib/near/fpset.o lib/near/fpstore.o lib/near/join.o \
	lib/near/linestore.o \
	lib/near/model.o lib/near/pairline.o lib/near/plan.o
INDEX_OBJ = lib/index/bandseg.o lib/index/deletes.o lib/index/ixfile.o lib/index/reader.o lib/index/segfile.o lib/index/segment.o lib/index/times.o \
	lib/index/writer.o
VERIFY_OBJ = lib/verify/decisions.o lib/verify/explain.o lib/verify/figures.o lib/verify/groups.o lib/verify/keep.o lib/verify/locate.o lib/verify/match.o \
	lib/verify/verify.o lib/verify/vfilter.o
HDR = $(BASE_HDR) $(TEXT_HDR) $(FEAT_HDR) $(FP_HDR) \
	$(NEAR_HDR) $(INDEX_HDR) $(VERIFY_HDR)
LIBOBJ = $(BASE_OBJ) $(TEXT_OBJ) $(FEAT_OBJ) $(FP_OBJ) \
	$(NEAR_OBJ) $(INDEX_OBJ) $(VERIFY_OBJ)

# What the programs share besides the library: the document options, the
# reading of operands, the messages about them, progress, usage and
# version; and the plumbing of sh-near's joins and verification and of
# sh-index's writes.
CMDHDR = cmd/clean.h cmd/diag.h cmd/docopt.h cmd/figures.h cmd/fpjoin.h cmd/help.h cmd/input.h cmd/ixadd.h cmd/keep.h cmd/progress.h cmd/usage.h cmd/vdocs.h
CMDOBJ = cmd/clean.o cmd/diag.o cmd/docopt.o cmd/figures.o cmd/fpjoin.o cmd/help.o cmd/input.o cmd/ixadd.o cmd/keep.o cmd/progress.o cmd/usage.o cmd/vdocs.o
BIN = bin/sh-dist bin/sh-fp bin/sh-index bin/sh-near bin/sh-tokenize
MAN1 = man/sh-dist.1 man/sh-fp.1 man/sh-index.1 man/sh-near.1 \
	man/sh-tokenize.1
MAN5 = man/sh-index.5
# The sample files of the man pages' examples, installed in DATADIR.
EXAMPLES = tests/fixtures/crawl.warc.gz tests/fixtures/sample.tsv tests/fixtures/sample.wet.gz \
	tests/fixtures/short-zh.tsv tests/fixtures/zdump-zh.tsv
UNIT = tests/unit/bandix_test tests/unit/charset_test tests/unit/crc32_test tests/unit/dict_test tests/unit/docmap_test \
	tests/unit/edit_test tests/unit/fp_test tests/unit/fpload_test tests/unit/grow_test tests/unit/hash_test tests/unit/hmap_test \
	tests/unit/idf_test tests/unit/index_test tests/unit/ixlocs_test tests/unit/lines_test tests/unit/maintext_test tests/unit/manifest_test tests/unit/minhash_test tests/unit/near_test tests/unit/recfield_test tests/unit/recloc_test \
	tests/unit/similar_test tests/unit/simhash_test tests/unit/t2s_test tests/unit/tok_test \
	tests/unit/unicode_test tests/unit/weight_test tests/unit/xsort_test tests/unit/zmap_test
# Helpers of the bats tests, built with the unit tests.
TESTBIN = tests/unit/forge
BENCH = bench/gen bench/genfp bench/edit bench/evalstat bench/readrec \
	bench/jaccard bench/lev bench/prf bench/wrap bench/editjoin \
	bench/shortgen bench/zmap

all: $(BIN)

.SUFFIXES: .c .o
.c.o:
	$(CC) $(SH_CFLAGS) $(CFLAGS) -c -o $@ $<

$(LIBOBJ): $(HDR)

lib/libsh.a: $(LIBOBJ)
	rm -f $@
	ar rcs $@ $(LIBOBJ)

$(CMDOBJ): $(HDR) $(CMDHDR)

cmd/libcmd.a: $(CMDOBJ)
	rm -f $@
	ar rcs $@ $(CMDOBJ)

$(BIN): cmd/libcmd.a lib/libsh.a $(HDR) $(CMDHDR)
	@mkdir -p bin
	$(CC) $(SH_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/$$(basename $@).c \
		cmd/libcmd.a lib/libsh.a $(SH_LIBS)
bin/sh-dist: cmd/sh-dist.c
bin/sh-fp: cmd/sh-fp.c
bin/sh-index: cmd/sh-index.c
bin/sh-near: cmd/sh-near.c
bin/sh-tokenize: cmd/sh-tokenize.c

$(UNIT) $(TESTBIN): lib/libsh.a $(HDR) tests/unit/tap.h tests/unit/rng.h \
		tests/unit/fpsets.h tests/unit/rmdir.h
	$(CC) $(SH_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $@.c lib/libsh.a \
		$(SH_LIBS)
tests/unit/bandix_test: tests/unit/bandix_test.c
tests/unit/charset_test: tests/unit/charset_test.c
tests/unit/crc32_test: tests/unit/crc32_test.c
tests/unit/dict_test: tests/unit/dict_test.c
tests/unit/docmap_test: tests/unit/docmap_test.c
tests/unit/edit_test: tests/unit/edit_test.c
tests/unit/fpload_test: tests/unit/fpload_test.c
tests/unit/grow_test: tests/unit/grow_test.c
tests/unit/hash_test: tests/unit/hash_test.c
tests/unit/hmap_test: tests/unit/hmap_test.c
tests/unit/idf_test: tests/unit/idf_test.c
tests/unit/index_test: tests/unit/index_test.c
tests/unit/ixlocs_test: tests/unit/ixlocs_test.c
tests/unit/lines_test: tests/unit/lines_test.c
tests/unit/maintext_test: tests/unit/maintext_test.c
tests/unit/manifest_test: tests/unit/manifest_test.c
tests/unit/minhash_test: tests/unit/minhash_test.c
tests/unit/near_test: tests/unit/near_test.c
tests/unit/recfield_test: tests/unit/recfield_test.c
tests/unit/recloc_test: tests/unit/recloc_test.c
tests/unit/similar_test: tests/unit/similar_test.c
tests/unit/simhash_test: tests/unit/simhash_test.c
tests/unit/fp_test: tests/unit/fp_test.c
tests/unit/tok_test: tests/unit/tok_test.c
tests/unit/t2s_test: tests/unit/t2s_test.c
tests/unit/unicode_test: tests/unit/unicode_test.c
tests/unit/weight_test: tests/unit/weight_test.c
tests/unit/xsort_test: tests/unit/xsort_test.c
tests/unit/zmap_test: tests/unit/zmap_test.c
tests/unit/forge: tests/unit/forge.c

$(BENCH): lib/libsh.a
	$(CC) $(SH_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $@.c lib/libsh.a \
		$(SH_LIBS)
bench/gen: bench/gen.c
bench/genfp: bench/genfp.c
bench/edit: bench/edit.c
bench/editjoin: bench/editjoin.c
bench/shortgen: bench/shortgen.c
bench/evalstat: bench/evalstat.c
bench/readrec: bench/readrec.c
bench/jaccard: bench/jaccard.c
bench/lev: bench/lev.c
bench/prf: bench/prf.c
bench/wrap: bench/wrap.c
bench/zmap: bench/zmap.c

check: $(BIN) $(UNIT) $(TESTBIN)
	tests/run

demo: $(BIN)
	@tools/demo

bench: $(BIN) bench/gen bench/genfp bench/lev bench/readrec bench/zmap
	bench/run.sh

eval: $(BIN) bench/edit bench/evalstat bench/jaccard bench/prf bench/wrap \
	bench/editjoin bench/shortgen
	bench/routes.sh
	bench/eval.sh
	bench/jieba-f1.sh
	bench/short.sh
	bench/charset-eval.sh
	bench/maintext.sh

# The man pages: mandoc's lint, and where groff is installed, groff's
# warnings at the 78 columns that man(1) gives them on 80 (a line that
# cannot break, a macro misread); then the layers of the library.
lint:
	mandoc -Tlint -W warning $(MAN1) $(MAN5)
	@if command -v groff >/dev/null 2>&1; then \
		for f in $(MAN1) $(MAN5); do \
			groff -k -mdoc -Tutf8 -ww -rLL=78n -z $$f 2>&1 | \
			    grep . && { echo "groff warns of $$f"; exit 1; }; \
		done; \
	fi; exit 0
	tools/layers lib

# The man pages name the sample files where they are installed.
install: $(BIN)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(DATADIR)
	cp -f $(BIN) $(DESTDIR)$(BINDIR)/
	for f in $(MAN1) $(MAN5); do \
		sed 's|/usr/local/share/sh|$(DATADIR)|g' $$f \
		    >$(DESTDIR)$(MANDIR)/man$${f##*.}/$${f#man/} || exit 1; \
	done
	cp -f $(EXAMPLES) $(DESTDIR)$(DATADIR)/

uninstall:
	for f in $(BIN); do rm -f $(DESTDIR)$(BINDIR)/$${f#bin/}; done
	for f in $(MAN1); do rm -f $(DESTDIR)$(MANDIR)/man1/$${f#man/}; done
	for f in $(MAN5); do rm -f $(DESTDIR)$(MANDIR)/man5/$${f#man/}; done
	for f in $(EXAMPLES); do rm -f $(DESTDIR)$(DATADIR)/$${f##*/}; done
	-rmdir $(DESTDIR)$(DATADIR) 2>/dev/null

clean:
	rm -f $(LIBOBJ) lib/libsh.a $(CMDOBJ) cmd/libcmd.a $(BIN) $(UNIT) $(TESTBIN) $(BENCH)
	rm -rf bin

.PHONY: all check demo bench eval lint install uninstall clean

# Fault injection (tests/faults/README): the sweeps of tests/faults.bats
# alone, which build the LD_PRELOAD shim themselves with cc.
faults: $(BIN)
	bats tests/faults.bats

.PHONY: faults

# Crash trials (tests/torture/README): writers sent SIGKILL at random
# until TORTURE_KILLS (1000) died of it, then TORTURE_ROUNDS rounds (100)
# of concurrent writers, some killed, under readers; then TORTURE_POWER
# (1000) power cuts at a random call of a writer, what was not synced
# lost; about 16 minutes.  make check runs 120 of the power cuts.
torture: $(BIN)
	tests/torture/run
	tests/torture/powerloss

.PHONY: torture

# Fuzzing (fuzz/README).  make fuzz builds each target with libFuzzer and
# the sanitizers and runs it FUZZ_SECONDS on a copy of its seed corpus;
# make fuzz-replay builds the same targets as plain programs with CC and
# CFLAGS (over lib/libsh.a) and replays the committed corpora.
FUZZ_TARGETS = record toklist fpline pairline idf df dict stopword fptext \
	segment manifest docmap maintext recfield
FUZZ_SECONDS = 60
FUZZ_CC = clang
FUZZ_CFLAGS = -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
FUZZ_LIB = fuzz/build/libfuzzer/libsh.a
FUZZ_BIN = fuzz/build/libfuzzer/record fuzz/build/libfuzzer/toklist \
	fuzz/build/libfuzzer/fpline fuzz/build/libfuzzer/pairline \
	fuzz/build/libfuzzer/idf fuzz/build/libfuzzer/df \
	fuzz/build/libfuzzer/dict fuzz/build/libfuzzer/stopword \
	fuzz/build/libfuzzer/fptext fuzz/build/libfuzzer/segment \
	fuzz/build/libfuzzer/manifest fuzz/build/libfuzzer/docmap \
	fuzz/build/libfuzzer/maintext fuzz/build/libfuzzer/recfield
FUZZ_REPLAY = fuzz/build/replay/record fuzz/build/replay/toklist \
	fuzz/build/replay/fpline fuzz/build/replay/pairline \
	fuzz/build/replay/idf fuzz/build/replay/df fuzz/build/replay/dict \
	fuzz/build/replay/stopword fuzz/build/replay/fptext \
	fuzz/build/replay/segment fuzz/build/replay/manifest \
	fuzz/build/replay/docmap fuzz/build/replay/maintext \
	fuzz/build/replay/recfield

# The library again, instrumented for coverage, apart from lib/*.o.
$(FUZZ_LIB): $(LIBOBJ:.o=.c) $(HDR)
	@mkdir -p fuzz/build/libfuzzer/lib
	for f in $(LIBOBJ:.o=.c); do \
		o=$${f##*/}; \
		$(FUZZ_CC) $(SH_CFLAGS) $(FUZZ_CFLAGS) \
		    -fsanitize=fuzzer-no-link -c -o \
		    fuzz/build/libfuzzer/lib/$${o%.c}.o $$f || exit 1; \
	done
	rm -f $@
	ar rcs $@ fuzz/build/libfuzzer/lib/*.o

$(FUZZ_BIN): $(FUZZ_LIB) fuzz/util.c fuzz/util.h
	$(FUZZ_CC) $(SH_CFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DSH_LIBFUZZER \
		-o $@ fuzz/$$(basename $@).c fuzz/util.c $(FUZZ_LIB) $(SH_LIBS)
fuzz/build/libfuzzer/record: fuzz/record.c
fuzz/build/libfuzzer/toklist: fuzz/toklist.c
fuzz/build/libfuzzer/fpline: fuzz/fpline.c
fuzz/build/libfuzzer/pairline: fuzz/pairline.c
fuzz/build/libfuzzer/idf: fuzz/idf.c
fuzz/build/libfuzzer/df: fuzz/df.c
fuzz/build/libfuzzer/dict: fuzz/dict.c
fuzz/build/libfuzzer/stopword: fuzz/stopword.c
fuzz/build/libfuzzer/fptext: fuzz/fptext.c
fuzz/build/libfuzzer/segment: fuzz/segment.c
fuzz/build/libfuzzer/manifest: fuzz/manifest.c
fuzz/build/libfuzzer/docmap: fuzz/docmap.c
fuzz/build/libfuzzer/maintext: fuzz/maintext.c
fuzz/build/libfuzzer/recfield: fuzz/recfield.c

$(FUZZ_REPLAY): lib/libsh.a $(HDR) fuzz/util.c fuzz/util.h fuzz/driver.c
	@mkdir -p fuzz/build/replay
	$(CC) $(SH_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ fuzz/$$(basename $@).c \
		fuzz/util.c fuzz/driver.c lib/libsh.a $(SH_LIBS)
fuzz/build/replay/record: fuzz/record.c
fuzz/build/replay/toklist: fuzz/toklist.c
fuzz/build/replay/fpline: fuzz/fpline.c
fuzz/build/replay/pairline: fuzz/pairline.c
fuzz/build/replay/idf: fuzz/idf.c
fuzz/build/replay/df: fuzz/df.c
fuzz/build/replay/dict: fuzz/dict.c
fuzz/build/replay/stopword: fuzz/stopword.c
fuzz/build/replay/fptext: fuzz/fptext.c
fuzz/build/replay/segment: fuzz/segment.c
fuzz/build/replay/manifest: fuzz/manifest.c
fuzz/build/replay/docmap: fuzz/docmap.c
fuzz/build/replay/maintext: fuzz/maintext.c
fuzz/build/replay/recfield: fuzz/recfield.c

# Each target on a scratch copy of its corpus, so that what the fuzzer
# finds never grows the committed one; a crash is kept in fuzz/build.
fuzz: $(FUZZ_BIN)
	@tmp=$$(mktemp -d) || exit 2; trap 'rm -rf "$$tmp"' EXIT; \
	status=0; \
	for t in $(FUZZ_TARGETS); do \
		echo "== fuzz $$t ($(FUZZ_SECONDS) s)"; \
		mkdir "$$tmp/$$t" && cp fuzz/corpus/$$t/* "$$tmp/$$t/" || exit 2; \
		len=; [ $$t = segment ] && len=-max_len=65536; \
		fuzz/build/libfuzzer/$$t -max_total_time=$(FUZZ_SECONDS) \
		    -timeout=10 -print_final_stats=1 $$len \
		    -artifact_prefix=fuzz/build/$$t- "$$tmp/$$t" \
		    2>"$$tmp/$$t.log" || { tail -n 60 "$$tmp/$$t.log"; \
		    status=1; continue; }; \
		grep -E 'DONE|stat::number_of_executed_units' \
		    "$$tmp/$$t.log"; \
	done; \
	exit $$status

fuzz-replay: $(FUZZ_REPLAY)
	@status=0; \
	for t in $(FUZZ_TARGETS); do \
		fuzz/build/replay/$$t fuzz/corpus/$$t || status=1; \
	done; \
	exit $$status

fuzz-clean:
	rm -rf fuzz/build

.PHONY: fuzz fuzz-replay fuzz-clean
