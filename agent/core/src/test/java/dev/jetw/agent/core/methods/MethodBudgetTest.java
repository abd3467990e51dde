package dev.jetw.agent.core.methods;

import dev.jetw.agent.core.options.AgentOptions;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The method budget on its own: the methods a rule keeps are the same whatever the order in which
 * they are registered, they are the share's smallest name hashes, and each rule gets its share
 * however many methods another rule brings first.
 */
class MethodBudgetTest {

    private static final String TWO_RULES = "include=com.acme.**;com.acme.engine.**,maxMethods=60";

    private static List<String[]> methods(String cls, int classes, int perClass) {
        List<String[]> l = new ArrayList<>();
        for (int c = 0; c < classes; c++) {
            for (int m = 0; m < perClass; m++) {
                l.add(new String[] {cls + c, "m" + m, "(I)I"});
            }
        }
        return l;
    }

    /** Registers every method in the given order, charged to the first rule (in the selection's order) that matches; returns the kept set. */
    private static List<String> run(Selection s, MethodRegistry r, List<String[]> order) {
        for (String[] m : order) {
            int group = 0;
            while (!s.rules().get(group).pattern.matches(m[0], m[1])) {
                group++;
            }
            r.register(m[0], m[1], m[2], 4, 0L, group);
        }
        return r.instrumented();
    }

    private static Selection selection(String options) {
        return new Selection(AgentOptions.parse(options));
    }

    @Test
    void theKeptSetDoesNotDependOnTheOrder() {
        List<String[]> all = methods("com.acme.C", 40, 10);
        Selection s = selection("include=com.acme.**,maxMethods=50");
        List<String> first = run(s, new MethodRegistry(50, s.rules()), all);
        assertEquals(50, first.size());
        Random random = new Random(11);
        for (int i = 0; i < 5; i++) {
            List<String[]> shuffled = new ArrayList<>(all);
            Collections.shuffle(shuffled, random);
            assertEquals(first, run(s, new MethodRegistry(50, s.rules()), shuffled), "order " + i);
        }
        List<String[]> reversed = new ArrayList<>(all);
        Collections.reverse(reversed);
        assertEquals(first, run(s, new MethodRegistry(50, s.rules()), reversed));
    }

    @Test
    void theKeptMethodsAreTheSmallestNameHashes() {
        List<String[]> all = methods("com.acme.C", 20, 10);
        Selection s = selection("include=com.acme.**,maxMethods=30");
        List<String> kept = run(s, new MethodRegistry(30, s.rules()), all);
        List<String> keys = new ArrayList<>();
        for (String[] m : all) {
            keys.add(m[0] + "." + m[1] + m[2]);
        }
        keys.sort(Comparator.comparing((String k) -> MethodBudget.rank(k), Long::compareUnsigned));
        List<String> expected = new ArrayList<>(keys.subList(0, 30));
        Collections.sort(expected);
        assertEquals(expected, kept);
    }

    @Test
    void eachRuleGetsItsShareWhicheverLoadsFirst() {
        // The more specific rule is listed second: rules claim methods most specific first all the same.
        Selection s = selection(TWO_RULES);
        assertEquals("com.acme.engine.**@4", s.rules().get(0).toString());
        List<String[]> engine = methods("com.acme.engine.E", 10, 10);
        List<String[]> web = methods("com.acme.web.W", 30, 10);
        List<String[]> webFirst = new ArrayList<>(web);
        webFirst.addAll(engine);
        List<String[]> engineFirst = new ArrayList<>(engine);
        engineFirst.addAll(web);
        MethodRegistry r = new MethodRegistry(60, s.rules());
        List<String> kept = run(s, r, webFirst);
        assertEquals(kept, run(s, new MethodRegistry(60, s.rules()), engineFirst));
        assertEquals(30, kept.stream().filter(k -> k.startsWith("com.acme.engine.")).count());
        assertEquals(30, kept.stream().filter(k -> k.startsWith("com.acme.web.")).count());
        assertEquals("  rule com.acme.engine.**@4: 30 instrumented, 70 left out (share 30)\n"
                + "  rule com.acme.**@4: 30 instrumented, 270 left out (share 30)\n", r.budgetReport());
    }

    @Test
    void aPushedOutMethodKeepsItsIdAndNameButWritesNothing() {
        Selection s = selection("include=com.acme.**,maxMethods=1");
        MethodRegistry r = new MethodRegistry(1, s.rules());
        String a = "com.acme.A";
        String b = "com.acme.B";
        boolean aFirst = Long.compareUnsigned(MethodBudget.rank(a + ".m()V"), MethodBudget.rank(b + ".m()V")) > 0;
        String larger = aFirst ? a : b;
        String smaller = aFirst ? b : a;
        int id = r.register(larger, "m", "()V", 4, 0L, 0);
        assertEquals(1, id);
        assertEquals(2, r.register(smaller, "m", "()V", 4, 0L, 0));
        assertEquals(0, r.levels[1], "the pushed-out method's level is off");
        assertEquals(4, r.levels[2]);
        assertEquals(0, r.register(larger, "m", "()V", 4, 0L, 0), "and stays out when its class is transformed again");
        assertEquals(1, r.idOf(larger, "m", "()V"), "its id still names it");
        assertEquals(2, r.idCount());
        assertEquals(1, r.count());
    }
}
