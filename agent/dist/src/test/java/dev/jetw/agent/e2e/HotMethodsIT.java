package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.HotGetterApp;
import dev.jetw.etl.EventType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The round trip a user makes: a traced run, {@code jetw etl hot-methods} on its trace (the real tool), and a second
 * run with {@code hotMethods=} that file: the format the tool writes is the one the agent reads, and the second run
 * starts with the getter excluded (no call of it written, its MethodExclusion marked as taken from the list).
 */
class HotMethodsIT {

    static final String APP = HotGetterApp.class.getName();

    @TempDir
    Path temp;

    private ChildJvm.Result traced(Path etl, String extra) throws Exception {
        // jvm=none: JFR starting beside main (issue 31) would slow the getter's first calls and blur hot-short
        String options = "include=" + APP + ",backend=portable,jvm=none,file=" + etl + extra;
        ChildJvm child = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=" + options), ChildJvm.appClassPath(), HotGetterApp.class);
        int exit = child.waitForExit();
        assertEquals(0, exit, child.toString());
        assertTrue(child.stdout().contains("sum 900000"), child.toString());
        return new ChildJvm.Result(exit, child.stdout(), String.join("\n", child.stderrLines()));
    }

    @Test
    void theToolsListStartsTheNextRunWithTheGetterExcluded() throws Exception {
        Path first = temp.resolve("first.etl");
        traced(first, "");
        TraceFile one = TraceFile.read(first);
        int getter = one.methodId(APP, "value");
        assertEquals(EventType.START, one.calls.stream().filter(c -> c.methodId() == getter).findFirst().orElseThrow().type(),
                "the first run wrote the getter's observed calls");

        Path hot = temp.resolve("app.hot");
        ChildJvm.Result list = ChildJvm.tool("etl", "hot-methods", "-o", hot.toString(), first.toString());
        assertEquals(0, list.exit(), list.toString());
        String written = Files.readString(hot);
        // Which exclusion depends on how fast the first calls ran: short in their first windows (hot-short), or
        // given the hot threshold first and proved fast later (hot-fast: a loaded machine keeps them interpreted).
        String reason = written.contains("\nhot-short " + APP + ".value()I\n") ? "hot-short" : "hot-fast";
        assertTrue(written.contains("\n" + reason + " " + APP + ".value()I\n"), written);
        assertTrue(!written.contains("pause"), "the sleeping method is not listed: " + written);

        Path second = temp.resolve("second.etl");
        ChildJvm.Result run = traced(second, ",hotMethods=" + hot);
        assertTrue(run.stderr().contains("hot methods: 1 in " + hot), run.stderr());
        TraceFile two = TraceFile.read(second);
        int getterAgain = two.methodId(APP, "value");
        int pause = two.methodId(APP, "pause");
        assertEquals(0, two.count(EventType.START, getterAgain), "no call of the listed getter written");
        assertEquals(3, two.count(EventType.START, pause), "every call of the other method");

        ChildJvm.Result again = ChildJvm.tool("etl", "hot-methods", second.toString());
        assertEquals(0, again.exit(), again.toString());
        assertTrue(again.stdout().contains("\n" + reason + " " + APP + ".value()I\n"), "the decision carries over to the next list: " + again.stdout());
        ChildJvm.Result summary = ChildJvm.tool("etl", "summary", second.toString());
        assertTrue(summary.stdout().contains(APP + ".value()I  " + reason + " (from hotMethods=): 0 calls observed"), summary.stdout());
    }
}
