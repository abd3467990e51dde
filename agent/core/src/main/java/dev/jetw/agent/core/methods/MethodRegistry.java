package dev.jetw.agent.core.methods;

import dev.jetw.agent.core.options.Rule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Method ids: assigned when a method is selected for instrumentation and its rule's share of the
 * budget takes it ({@link MethodBudget}), never on the hot path; baked into its advice as a
 * constant, and named once in the trace by a Method DC_START rundown. Ids start at 1 (0 means "no
 * method" in a CHECKPOINT payload) and are never reused: a method pushed out of the budget keeps
 * its id and name (events it wrote may be in the trace) and its level becomes 0, which the hot path
 * reads as "write nothing", at once; its advice goes at the {@link dev.jetw.agent.core.exclusion.ExcludedMethodRemover}'s next batch.
 * The levels are in a fixed array, so the hot path reads them without a lookup.
 */
public final class MethodRegistry {

    /** One selected method, as the rundown names it and the budget ranks it. */
    public static final class Entry {
        public int id;
        public final String className;
        public final String methodName;
        public final String descriptor;
        final int group;
        final long rank;
        /** Handed to the rundown for its DC_START (under the registry's lock): once only. */
        boolean queued;

        Entry(String className, String methodName, String descriptor, int group) {
            this.className = className;
            this.methodName = methodName;
            this.descriptor = descriptor;
            this.group = group;
            this.rank = MethodBudget.rank(key());
        }

        String key() {
            return className + '.' + methodName + descriptor;
        }
    }

    private final int maxMethods;
    private final MethodBudget budget;
    /** Index = method id. Written before the method's class is (re)transformed, read by the advice; 0 = off. */
    public final byte[] levels;
    /**
     * Index = method id: calls shorter than this many nanoseconds are not written (0: every call; negative: every
     * call, none set, so that adaptive exclusion may give the method one if it is hot). Written like levels.
     */
    public final long[] thresholds;
    /** Index = method id: true once the method's advice is to be left out when its class is (re)transformed. */
    private final boolean[] uninstrumented;
    /**
     * Index = method id: its advice has a linked entry (MethodEntries), so muting it costs nothing and the
     * remover leaves its class alone. Written while its class is transformed, read by the remover.
     */
    private final boolean[] linked;
    /**
     * Index = method id: pushed out of its rule's share, no longer instrumented. Written under this object's
     * lock, read without it by the remover once a second for every id (a late read only delays it a step; a
     * lock per id would cost it a lock a method at every look).
     */
    private final boolean[] evicted;
    private final List<Entry> entries = new ArrayList<>();
    private final Map<String, Integer> ids = new HashMap<>();
    private int live;
    private boolean idsExhaustedReported;
    /** Methods registered but not yet named by a DC_START. */
    private final ConcurrentLinkedQueue<Entry> pendingRundown = new ConcurrentLinkedQueue<>();

    public MethodRegistry(int maxMethods, List<Rule> rules) {
        this.maxMethods = maxMethods;
        this.budget = MethodBudget.of(maxMethods, rules);
        // Every rule's share plus @Traced's, and room for the methods pushed out on the way (their
        // ids are not reused): a few times the budget, as a class-loading order unrelated to the
        // hash pushes out about share x ln(methods seen / share) methods.
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8, 8L * maxMethods + 1024);
        this.levels = new byte[capacity + 1];
        entries.add(null); // id 0
        this.thresholds = new long[capacity + 1];
        this.uninstrumented = new boolean[capacity + 1];
        this.linked = new boolean[capacity + 1];
        this.evicted = new boolean[capacity + 1];
    }

    /**
     * Registers a method of rule {@code group} (idempotent for the same class, name and descriptor).
     *
     * @return its id, or 0 when its rule's share leaves it out
     */
    public synchronized int register(String className, String methodName, String descriptor, int level, long thresholdNanos, int group) {
        int id = registerUnnamed(className, methodName, descriptor, level, thresholdNanos, group);
        queueForRundown(id);
        return id;
    }

    /**
     * Registers a method as {@link #register} does, but holds it back from the rundown until {@link #queueForRundown}:
     * the rundown writes a method's known decision (MethodExclusion) right after its DC_START, so the decision must
     * be applied before the rundown thread can see the method, or the trace names it without saying why it is absent.
     */
    public synchronized int registerUnnamed(String className, String methodName, String descriptor, int level, long thresholdNanos, int group) {
        Entry e = new Entry(className, methodName, descriptor, group);
        Integer known = ids.get(e.key());
        if (known != null) {
            return evicted[known] ? 0 : known;
        }
        if (entries.size() >= levels.length) {
            if (!idsExhaustedReported) {
                idsExhaustedReported = true;
                System.err.println("jetw: warning: " + (levels.length - 1) + " method ids used (maxMethods=" + maxMethods
                        + "); " + e.key() + " and further methods are not instrumented (raise maxMethods or narrow include)");
            }
            return 0;
        }
        Entry out = budget.admit(e);
        if (budget.firstLeftOut(group)) {
            MethodBudget.Group g = budget.group(group);
            System.err.println("jetw: warning: maxMethods=" + maxMethods + ": rule " + g.name + " has more methods than its share of "
                    + g.share + "; it keeps those of the smallest name hash, the same on every run (status lists what each rule left out)");
        }
        if (out == e) {
            return 0;
        }
        if (out != null) {
            evicted[out.id] = true;
            levels[out.id] = 0;
            live--;
        }
        e.id = entries.size();
        entries.add(e);
        levels[e.id] = (byte) level;
        thresholds[e.id] = thresholdNanos;
        ids.put(e.key(), e.id);
        live++;
        return e.id;
    }

    /** Hands method {@code id} to the rundown for its DC_START, unless it was already (0: no method, nothing). */
    public synchronized void queueForRundown(int id) {
        Entry e = entry(id);
        if (e != null && !e.queued) {
            e.queued = true;
            pendingRundown.add(e);
        }
    }

    /** Counts a trivial method that rule {@code group} matched and left uninstrumented (once per method). */
    public synchronized void leaveOutTrivial(String className, String methodName, String descriptor, int group) {
        budget.group(group).trivial.add(MethodBudget.rank(className + '.' + methodName + descriptor));
    }

    /** Per rule with trivial methods left out: its name and how many (status, stop line and the trace's record). */
    public synchronized Map<String, Integer> trivialLeftOut() {
        Map<String, Integer> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < budget.groupCount(); i++) {
            MethodBudget.Group g = budget.group(i);
            if (!g.trivial.isEmpty()) {
                m.put(g.name, g.trivial.size());
            }
        }
        return m;
    }

    /** The id of a registered method (pushed out or not), 0 if none. */
    public synchronized int idOf(String className, String methodName, String descriptor) {
        Integer id = ids.get(className + '.' + methodName + descriptor);
        return id == null ? 0 : id;
    }

    /** From now on a (re)transformation of {@code id}'s class leaves the method without advice. */
    public synchronized void uninstrument(int id) {
        uninstrumented[id] = true;
    }

    /** The advice of {@code id} has a linked entry that can be muted: that takes it out of compiled code, no retransformation needed. */
    public synchronized void markLinked(int id) {
        linked[id] = true;
    }

    public synchronized boolean isLinked(int id) {
        return linked[id];
    }

    /** True for a method whose advice is to be left out (adaptive exclusion removed it). */
    public synchronized boolean isUninstrumented(int id) {
        return uninstrumented[id];
    }

    /** True for a method the budget pushed out after it was registered (its class may still carry its advice). */
    public boolean isEvicted(int id) {
        return id > 0 && id < evicted.length && evicted[id];
    }

    /** The largest method id this registry hands out: the size of every per-method array. */
    public int capacity() {
        return levels.length - 1;
    }

    /** Methods instrumented now. */
    public synchronized int count() {
        return live;
    }

    /** Ids handed out, pushed-out methods included: the rundown names ids 1 to this. */
    public synchronized int idCount() {
        return entries.size() - 1;
    }

    public synchronized boolean guardReached() {
        return budget.anyLeftOut() || idsExhaustedReported;
    }

    public synchronized Entry entry(int id) {
        return id > 0 && id < entries.size() ? entries.get(id) : null;
    }

    /** Next method still waiting for its DC_START, or null. */
    public Entry pollPendingRundown() {
        return pendingRundown.poll();
    }

    /** One line per rule: its share, what it instruments, what it left out. */
    public synchronized String budgetReport() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < budget.groupCount(); i++) {
            MethodBudget.Group g = budget.group(i);
            if (g.kept.isEmpty() && g.leftOut.isEmpty() && g.trivial.isEmpty()) {
                continue;
            }
            sb.append("  rule ").append(g.name).append(": ").append(g.kept.size()).append(" instrumented, ")
                    .append(g.leftOut.size()).append(" left out (share ").append(g.share).append(")");
            if (!g.trivial.isEmpty()) {
                sb.append(", ").append(g.trivial.size()).append(" trivial not instrumented (trivial=trace traces them)");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The instrumented methods, sorted: what a run's budget chose. */
    public synchronized List<String> instrumented() {
        List<String> l = new ArrayList<>();
        for (int id = 1; id < entries.size(); id++) {
            if (!evicted[id]) {
                l.add(entries.get(id).key());
            }
        }
        java.util.Collections.sort(l);
        return l;
    }
}
