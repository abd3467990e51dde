package dev.jetw.etw.portable.linux;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * sched_switch's prev_state as this kernel encodes it, learnt from the event's print fmt:
 * <pre>
 *   (REC-&gt;prev_state &amp; (TASK_REPORT_MAX - 1)) ? __print_flags(..., { 0x01, "S" }, { 0x02, "D" }, { 0x04, "T" },
 *       { 0x08, "t" }, { 0x10, "X" }, { 0x20, "Z" }, { 0x40, "P" }, { 0x80, "I" }) : "R",
 *   REC-&gt;prev_state &amp; TASK_REPORT_MAX ? "+" : ""
 * </pre>
 * Since 4.14 the value is one report bit (1 &lt;&lt; (task_state_index - 1)), 0 for a runnable task that gave up the
 * CPU itself (sched_yield, or woken between setting its state and schedule()), or TASK_REPORT_MAX (0x100 on
 * 6.18) when it was preempted: "R+". The letters and TASK_REPORT_MAX come from the format file, so a kernel that
 * renumbers them still decodes.
 */
final class PrevState {

    private static final Pattern FLAG = Pattern.compile("\\{\\s*(0x[0-9a-fA-F]+|\\d+)\\s*,\\s*\"(\\w)\"\\s*\\}");

    private final long[] bits;
    private final char[] letters;
    /** TASK_REPORT_MAX: the "preempted" bit (the highest flag bit shifted once more). */
    public final long preemptBit;

    PrevState(long[] bits, char[] letters, long preemptBit) {
        this.bits = bits;
        this.letters = letters;
        this.preemptBit = preemptBit;
    }

    public static PrevState fromPrintFmt(String printFmt) {
        List<long[]> found = new ArrayList<long[]>();
        int flags = printFmt.indexOf("__print_flags");
        Matcher m = FLAG.matcher(flags >= 0 ? printFmt.substring(flags) : printFmt);
        while (m.find()) {
            long v = Long.decode(m.group(1));
            found.add(new long[] {v, m.group(2).charAt(0)});
        }
        if (found.isEmpty()) {
            return linux418To618();
        }
        long[] bits = new long[found.size()];
        char[] letters = new char[found.size()];
        long max = 0;
        for (int i = 0; i < bits.length; i++) {
            bits[i] = found.get(i)[0];
            letters[i] = (char) found.get(i)[1];
            max = Math.max(max, bits[i]);
        }
        return new PrevState(bits, letters, max << 1);
    }

    /** The encoding of 4.14 .. 6.18 (what this VM's 6.18 prints). */
    public static PrevState linux418To618() {
        return new PrevState(new long[] {0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80},
                new char[] {'S', 'D', 'T', 't', 'X', 'Z', 'P', 'I'}, 0x100);
    }

    /** The state letter: 'R' (runnable), 'S', 'D', 'T', 't', 'X', 'Z', 'P', 'I'; the first set bit wins. */
    public char letter(long state) {
        long s = state & (preemptBit - 1);
        for (int i = 0; i < bits.length; i++) {
            if ((s & bits[i]) != 0) {
                return letters[i];
            }
        }
        return 'R';
    }

    public boolean preempted(long state) {
        return (state & preemptBit) != 0;
    }

    /** As the kernel prints it: "S", "D", "R", "R+". */
    public String text(long state) {
        StringBuilder b = new StringBuilder();
        long s = state & (preemptBit - 1);
        for (int i = 0; i < bits.length; i++) {
            if ((s & bits[i]) != 0) {
                if (b.length() > 0) {
                    b.append('|');
                }
                b.append(letters[i]);
            }
        }
        if (b.length() == 0) {
            b.append('R');
        }
        if (preempted(state)) {
            b.append('+');
        }
        return b.toString();
    }
}
