package dev.jetw.etw.portable.linux;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * A child JVM for {@link PerfSamplerTest}: started under a low {@code ulimit -n}, it takes every descriptor but
 * {@code args[0]}, then starts the sampler with CPU samples and hard faults on every online CPU, so that
 * perf_event_open answers EMFILE part way. Prints each notice as {@code notice: ...}, the problems at stop, then
 * {@code ok}.
 */
public final class PerfDescriptorsChild {

    private PerfDescriptorsChild() {
    }

    public static void main(String[] args) throws Exception {
        int spare = Integer.parseInt(args[0]);
        KernelFlagPlan plan = KernelFlagPlan.of(EnumSet.of(dev.jetw.etw.KernelFlag.PROFILE,
                dev.jetw.etw.KernelFlag.MEMORY_HARD_FAULTS), null);
        final List<String> notices = new ArrayList<String>();
        KernelRecordSink sink = new KernelRecordSink() {
            @Override
            public void write(int cpu, long nanoTime, int headerType, int version, int group, int type, int threadId,
                              int processId, ByteBuffer payload, int length) {
            }

            @Override
            public long timeStamp(long nanoTime) {
                return nanoTime;
            }

            @Override
            public void lost(long count) {
            }

            @Override
            public void notice(int kind, String text, long nanoTime) {
                notices.add(text);
            }
        };
        // A first start and stop loads every class the sampler needs: the second may not need a descriptor for that.
        PerfSampler.start(plan, ProcFs.selfPid(), CpuList.online(), sink).stop();
        notices.clear();
        List<FileInputStream> taken = new ArrayList<FileInputStream>();
        try {
            while (true) {
                taken.add(new FileInputStream("/dev/null"));
            }
        } catch (IOException e) {
            // no descriptor left
        }
        for (int i = 0; i < spare; i++) {
            taken.remove(taken.size() - 1).close();
        }
        PerfSampler s;
        try {
            s = PerfSampler.start(plan, ProcFs.selfPid(), CpuList.online(), sink);
        } finally {
            for (FileInputStream f : taken) {
                f.close();
            }
        }
        List<String> problems = s.stop();
        for (String n : notices) {
            System.out.println("notice: " + n);
        }
        System.out.println("problems: " + problems);
        System.out.println("ok");
    }
}
