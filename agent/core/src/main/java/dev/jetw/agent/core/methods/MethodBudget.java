package dev.jetw.agent.core.methods;

import dev.jetw.agent.core.options.Rule;

import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * The maxMethods budget, shared out so that which methods are instrumented does not depend on the
 * order in which classes load. Every selection rule is a group with a share of its own (the
 * include and annotation rules share maxMethods equally; {@code @Traced} has a share of
 * maxMethods besides); within a group a method's rank is a 64-bit hash of its name
 * ({@link #rank}), and the group keeps the methods of the smallest ranks among those it has seen.
 * A newcomer that ranks below the largest kept one pushes it out; one that ranks above is left
 * out. Since the largest kept rank only goes down, a method left out never comes back, and once
 * the same classes are loaded the kept set is the same, whatever the order: the share's smallest
 * ranks of the rule's methods.
 */
final class MethodBudget {

    /** Methods by rank, ties (practically never) by name (a class, not a lambda: a lambda on premain's path spins a class at run time, and the first one sets up the JVM's lambda machinery, ~5 ms; BENCHMARKS.md §15). */
    static final Comparator<MethodRegistry.Entry> BY_RANK = new ByRank();

    private static final class ByRank implements Comparator<MethodRegistry.Entry> {
        @Override
        public int compare(MethodRegistry.Entry a, MethodRegistry.Entry b) {
            int c = Long.compareUnsigned(a.rank, b.rank);
            return c != 0 ? c : a.key().compareTo(b.key());
        }
    }

    /** One rule's share and state. */
    static final class Group {
        final String name;
        final int share;
        final TreeSet<MethodRegistry.Entry> kept = new TreeSet<>(BY_RANK);
        /** Ranks of the methods left out (pushed out or never let in), so each counts once. */
        final Set<Long> leftOut = new HashSet<>();
        /** Ranks of the trivial methods the rule matched and left uninstrumented (option trivial=), each once. */
        final Set<Long> trivial = new HashSet<>();
        boolean warned;

        Group(String name, int share) {
            this.name = name;
            this.share = share;
        }
    }

    private final Group[] groups;

    MethodBudget(Group[] groups) {
        this.groups = groups;
    }

    /**
     * The groups of a selection: one per rule, in the selection's order, sharing maxMethods
     * (the first ones get the remainder), then {@code @Traced} with maxMethods of its own.
     */
    static MethodBudget of(int maxMethods, java.util.List<Rule> rules) {
        Group[] g = new Group[rules.size() + 1];
        for (int i = 0; i < rules.size(); i++) {
            int share = maxMethods / rules.size() + (i < maxMethods % rules.size() ? 1 : 0);
            g[i] = new Group(rules.get(i).toString(), share);
        }
        g[rules.size()] = new Group("@" + Selection.TRACED, maxMethods);
        return new MethodBudget(g);
    }

    /** FNV-1a over the method's class, name and descriptor: stable across runs, JVMs and loaders. */
    static long rank(String key) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            h = (h ^ (c & 0xFF)) * 0x100000001b3L;
            h = (h ^ (c >>> 8)) * 0x100000001b3L;
        }
        return h;
    }

    /**
     * Decides on a method new to the budget. Returns {@code candidate} when it is left out, the
     * kept method it pushes out when it takes that one's place, or null when it is in and nothing
     * had to go.
     */
    MethodRegistry.Entry admit(MethodRegistry.Entry candidate) {
        Group g = groups[candidate.group];
        if (g.kept.size() < g.share) {
            g.kept.add(candidate);
            return null;
        }
        MethodRegistry.Entry largest = g.kept.isEmpty() ? null : g.kept.last();
        MethodRegistry.Entry out = largest != null && BY_RANK.compare(candidate, largest) < 0 ? largest : candidate;
        if (out != candidate) {
            g.kept.pollLast();
            g.kept.add(candidate);
        }
        g.leftOut.add(out.rank);
        return out;
    }

    /** True the first time {@code group} leaves a method out: the caller warns once per rule. */
    boolean firstLeftOut(int group) {
        Group g = groups[group];
        if (g.warned || g.leftOut.isEmpty()) {
            return false;
        }
        g.warned = true;
        return true;
    }

    Group group(int index) {
        return groups[index];
    }

    int groupCount() {
        return groups.length;
    }

    boolean anyLeftOut() {
        for (Group g : groups) {
            if (!g.leftOut.isEmpty()) {
                return true;
            }
        }
        return false;
    }
}
