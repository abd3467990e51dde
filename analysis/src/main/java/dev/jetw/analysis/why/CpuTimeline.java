package dev.jetw.analysis.why;

/**
 * One thread's scheduling state over time, from its kernel Thread/CSwitch and Thread/ReadyThread
 * events fed in time order: switched in = on CPU; switched out in state Waiting = waiting for the
 * CSwitch's wait reason; switched out Ready, Standby or DeferredReady = preempted, ready; readied
 * (ReadyThread) = ready until switched in (a ReadyThread while on CPU changes nothing). Each stretch
 * of one state goes out as a segment; a wait ended by a ReadyThread names the thread that readied it
 * (the ReadyThread's header thread: the waker; 0 is an interrupt or the idle CPU).
 *
 * <p><b>A switch-in the trace does not hold.</b> Some kernels leave switch-ins out (on the VM of
 * docs/kernel-events.md, Linux never recorded a switch out of CPU 1's idle task, which is the switch-in
 * of the thread it runs next), so a thread can be switched out while not known to be running. No time is
 * invented for it: the stretch since the thread's last ReadyThread (it was woken, then ran) counts as
 * {@link #ON_CPU_ESTIMATED}; without a ReadyThread since it left the CPU (it was preempted, or its wake-up
 * is not in the trace either) the stretch since then is {@link #UNKNOWN_GAP}. Each such switch-out is
 * counted ({@link #missingSwitchIns()}).
 */
public final class CpuTimeline {

    public static final String ON_CPU = "on CPU";
    public static final String ON_CPU_ESTIMATED = "on CPU, estimated (switch-in not recorded)";
    public static final String READY = "ready, waiting for a CPU";
    public static final String UNKNOWN = "unknown (no context switch before it)";
    public static final String UNKNOWN_GAP = "unknown (switch-in not recorded)";
    public static final String WAITING = "waiting: ";

    /** Waker of a segment that is not a wait ended by a ReadyThread. */
    public static final long NO_WAKER = Long.MIN_VALUE;

    /** KTHREAD_STATE values of CSwitch's OldThreadState. */
    private static final int STATE_READY = 1;
    private static final int STATE_STANDBY = 3;
    private static final int STATE_TERMINATED = 4;
    private static final int STATE_WAITING = 5;
    private static final int STATE_TRANSITION = 6;
    private static final int STATE_DEFERRED_READY = 7;

    /** Where the segments go. */
    public interface Segments {
        /**
         * The thread was in {@code state} over [{@code from}, {@code to}). For a wait ended by a
         * ReadyThread, {@code waker} is that record's header thread id (0: an interrupt or the idle CPU;
         * -1: the record names none) and {@code wakerPid} its process id; otherwise {@code waker} is
         * {@link #NO_WAKER}.
         */
        void segment(long from, long to, String state, long waker, int wakerPid);
    }

    private final Segments out;
    private String state;
    private long since;
    /** The current READY stretch began with a ReadyThread (the thread was woken, not preempted). */
    private boolean readied;
    private long missingSwitchIns;

    /** A timeline that says nothing before its first event. */
    public CpuTimeline(Segments out) {
        this.out = out;
    }

    /** A timeline in {@code state} from {@code since} (e.g. {@link #UNKNOWN} from the start of a call). */
    public CpuTimeline(Segments out, String state, long since) {
        this.out = out;
        this.state = state;
        this.since = since;
    }

    public void switchedIn(long time) {
        emit(time, NO_WAKER, 0);
        state = ON_CPU;
        since = time;
        readied = false;
    }

    /** Switched out in KTHREAD_STATE {@code oldState}, waiting for KWAIT_REASON {@code waitReason}. */
    public void switchedOut(long time, int oldState, int waitReason) {
        if (state != null && !state.equals(ON_CPU) && !state.equals(UNKNOWN)) {
            missingSwitchIns++;
            state = readied ? ON_CPU_ESTIMATED : UNKNOWN_GAP;
        }
        emit(time, NO_WAKER, 0);
        state = stateName(oldState, waitReason);
        since = time;
        readied = false;
    }

    /** Made ready to run by thread {@code waker} of {@code wakerPid} (a ReadyThread's header thread and process). */
    public void readied(long time, long waker, int wakerPid) {
        if (ON_CPU.equals(state) || (READY.equals(state) && readied)) {
            return;
        }
        emit(time, state != null && state.startsWith(WAITING) ? waker : NO_WAKER, wakerPid);
        state = READY;
        since = time;
        readied = true;
    }

    /** Ends the last segment at {@code time}. */
    public void finish(long time) {
        emit(time, NO_WAKER, 0);
        state = null;
    }

    private void emit(long to, long waker, int wakerPid) {
        if (state != null && to > since) {
            out.segment(since, to, state, waker, wakerPid);
        }
    }

    /** Switch-outs of the thread while it was not known to be running (a switch-in is missing before each). */
    public long missingSwitchIns() {
        return missingSwitchIns;
    }

    /** The state a switch-out leaves the thread in: "waiting: UserRequest", {@link #READY}, "terminated", ... */
    static String stateName(int state, int waitReason) {
        switch (state) {
            case STATE_WAITING:
                return WAITING + WaitReasons.name(waitReason);
            case STATE_READY:
            case STATE_STANDBY:
            case STATE_DEFERRED_READY:
                return READY;
            case STATE_TRANSITION:
                return WAITING + "Transition (kernel stack not resident)";
            case STATE_TERMINATED:
                return "terminated";
            default:
                return "off CPU, state " + state;
        }
    }

    /** The name of a state on a viewer's track: "Running", "Ready", "Waiting (UserRequest)", ... */
    public static String trackName(String state) {
        switch (state) {
            case ON_CPU:
                return "Running";
            case ON_CPU_ESTIMATED:
                return "Running (estimated: switch-in not recorded)";
            case READY:
                return "Ready";
            case UNKNOWN:
            case UNKNOWN_GAP:
                return "Unknown (switch-in not recorded)";
            default:
                if (state.startsWith(WAITING)) {
                    return "Waiting (" + state.substring(WAITING.length()) + ")";
                }
                return Character.toUpperCase(state.charAt(0)) + state.substring(1);
        }
    }
}
