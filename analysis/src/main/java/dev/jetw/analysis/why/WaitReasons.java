package dev.jetw.analysis.why;

/**
 * Names of the kernel's wait reasons (KWAIT_REASON), the value of CSwitch's OldThreadWaitReason, as
 * Microsoft's TraceProcessor lists them (Microsoft.Windows.EventTracing.Cpu.KernelWaitReason, 0 to 39).
 * The unprefixed reasons are waits the kernel makes for itself; the "Wr" ones mostly waits made for
 * user mode (e.g. WrUserRequest: a wait on an object from user code; WrQueue: a worker waiting on a
 * queue; DelayExecution: a sleep).
 */
public final class WaitReasons {

    private static final String[] NAMES = {
        "Executive", "FreePage", "PageIn", "PoolAllocation", "DelayExecution", "Suspended", "UserRequest",
        "WrExecutive", "WrFreePage", "WrPageIn", "WrPoolAllocation", "WrDelayExecution", "WrSuspended",
        "WrUserRequest", "WrEventPair", "WrQueue", "WrLpcReceive", "WrLpcReply", "WrVirtualMemory", "WrPageOut",
        "WrRendezvous", "WrKeyedEvent", "WrTerminated", "WrProcessInSwap", "WrCpuRateControl", "WrCalloutStack",
        "WrKernel", "WrResource", "WrPushLock", "WrMutex", "WrQuantumEnd", "WrDispatchInt", "WrPreempted",
        "WrYieldExecution", "WrFastMutex", "WrGuardedMutex", "WrRundown", "WrAlertByThreadId", "WrDeferredPreempt",
        "WrPhysicalFault",
    };

    private WaitReasons() {
    }

    /** "UserRequest" for 6; "reason N" for a value outside the published list. */
    public static String name(int reason) {
        return reason >= 0 && reason < NAMES.length ? NAMES[reason] : "reason " + reason;
    }
}
