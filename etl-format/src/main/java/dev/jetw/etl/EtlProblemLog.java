package dev.jetw.etl;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The problems of one file, capped: the first {@link #MAX_LISTED} are kept one by one, the rest only
 * counted, so a huge damaged file yields a bounded list (and bounded memory) with one last line
 * saying how many were left out. Also counts the corrupt buffers, listed or not.
 */
final class EtlProblemLog {

    static final int MAX_LISTED = 100;

    private final List<EtlProblem> listed = new ArrayList<>();
    private int notListed;
    private boolean notListedTruncated;
    private int corruptBuffers;

    void truncated(long offset, String message) {
        add(EtlProblem.Kind.TRUNCATED, offset, message);
    }

    /** A buffer skipped, or cut short by a damaged record. */
    void corrupt(long offset, String message) {
        corruptBuffers++;
        add(EtlProblem.Kind.CORRUPT_BUFFER, offset, message);
    }

    /** Fields that contradict each other or the file; no buffer was skipped for it. */
    void inconsistent(long offset, String message) {
        add(EtlProblem.Kind.INCONSISTENT, offset, message);
    }

    private void add(EtlProblem.Kind kind, long offset, String message) {
        if (listed.size() < MAX_LISTED) {
            listed.add(new EtlProblem(kind, offset, message));
        } else {
            notListed++;
            notListedTruncated |= kind == EtlProblem.Kind.TRUNCATED;
        }
    }

    int corruptBuffers() {
        return corruptBuffers;
    }

    boolean isTruncated() {
        if (notListedTruncated) {
            return true;
        }
        for (EtlProblem p : listed) {
            if (p.kind() == EtlProblem.Kind.TRUNCATED) {
                return true;
            }
        }
        return false;
    }

    /** The listed problems, then (if any were left out) one counting them. */
    List<EtlProblem> list() {
        if (notListed == 0) {
            return Collections.unmodifiableList(new ArrayList<>(listed));
        }
        List<EtlProblem> all = new ArrayList<>(listed);
        all.add(new EtlProblem(notListedTruncated ? EtlProblem.Kind.TRUNCATED : EtlProblem.Kind.CORRUPT_BUFFER,
                listed.get(listed.size() - 1).offset(), notListed + " more problems are not listed (at most "
                + MAX_LISTED + " are); " + corruptBuffers + " corrupt buffers in all"));
        return Collections.unmodifiableList(all);
    }
}
