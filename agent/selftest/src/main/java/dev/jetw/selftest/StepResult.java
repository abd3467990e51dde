package dev.jetw.selftest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The outcome of one selftest step: a verdict, a one-line summary, and the details for the report. */
public final class StepResult {

    public enum Verdict { PASS, FAIL, SKIP }

    private final String step;
    private final Verdict verdict;
    private final String summary;
    private final List<String> details;

    private StepResult(String step, Verdict verdict, String summary, List<String> details) {
        this.step = step;
        this.verdict = verdict;
        this.summary = summary;
        this.details = Collections.unmodifiableList(new ArrayList<>(details));
    }

    static StepResult pass(String step, String summary, List<String> details) {
        return new StepResult(step, Verdict.PASS, summary, details);
    }

    static StepResult fail(String step, String summary, List<String> details) {
        return new StepResult(step, Verdict.FAIL, summary, details);
    }

    static StepResult skip(String step, String reason) {
        return new StepResult(step, Verdict.SKIP, reason, Collections.<String>emptyList());
    }

    /** PASS when {@code problems} is empty, else FAIL naming the first problem; the details keep them all. */
    static StepResult judge(String step, String passSummary, List<String> facts, List<String> problems) {
        if (problems.isEmpty()) {
            return pass(step, passSummary, facts);
        }
        List<String> details = new ArrayList<>(problems);
        details.addAll(facts);
        String more = problems.size() > 1 ? " (and " + (problems.size() - 1) + " more problems, see the report)" : "";
        return fail(step, problems.get(0) + more, details);
    }

    public String step() { return step; }

    public Verdict verdict() { return verdict; }

    public String summary() { return summary; }

    public List<String> details() { return details; }

    /** The verdict line the selftest prints: {@code [PASS] file-trace       <summary>}. */
    public String line() {
        return String.format("%-6s %-15s %s", "[" + verdict + "]", step, summary);
    }

    @Override
    public String toString() {
        return line();
    }
}
