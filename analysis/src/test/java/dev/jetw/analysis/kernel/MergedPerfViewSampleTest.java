package dev.jetw.analysis.kernel;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * net.4.5.2.x64.etl (PerfView's merged Windows 8 trace, samples README): the stacks compressed by key,
 * TcpIp/UdpIp over IPv4 and IPv6, and the EventTraceConfig records, decoded by name and field. Counts are
 * the file's; the values were read by hand from the payload bytes (quoted beside each check) and laid
 * against Microsoft's MOF classes (docs/kernel-events.md).
 */
class MergedPerfViewSampleTest {

    private static final List<KernelEvent> EVENTS = new ArrayList<>();
    private static final StackKeys KEYS = new StackKeys();

    @BeforeAll
    static void read() throws IOException {
        Path f = Paths.get(System.getProperty("jetw.samples.dir"), "net.4.5.2.x64.etl");
        try (EtlReader r = EtlReader.open(f)) {
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                KernelEvent k = KernelDecoder.decode(e);
                if (k != null) {
                    EVENTS.add(k);
                    KEYS.accept(k);
                }
            }
            assertTrue(r.problems().isEmpty(), r.problems().toString());
        }
    }

    private static Map<String, Integer> counts(KernelClass c) {
        Map<String, Integer> m = new TreeMap<>();
        for (KernelEvent e : EVENTS) {
            if (e.kernelClass() == c) {
                m.merge(e.eventName(), 1, Integer::sum);
            }
        }
        return m;
    }

    private static KernelEvent first(String fullName) {
        return EVENTS.stream().filter(e -> e.fullName().equals(fullName)).findFirst().orElseThrow();
    }

    @Test
    void everyStackKeyReferenceResolvesToTheFramesOfItsKey() {
        assertEquals(Map.of("Stack", 252, "KeyDelete", 1909, "KeyRundown", 1012, "StackKeyKernel", 2061, "StackKeyUser", 7046),
                counts(KernelClass.STACK_WALK));
        assertEquals(1909 + 1012, KEYS.definitionCount());
        // PERFINFO64 StackWalk type 37: c92be47300000000 04000000 20020000 1010440383faffff
        KernelEvent kernel = first("StackWalk/StackKeyKernel");
        assertEquals(0x73e42bc9L, kernel.number("eventTimeStamp"));
        assertEquals(4, kernel.processId());
        assertEquals(0x220, kernel.threadId());
        assertEquals(0xfffffa8303441010L, kernel.number("stackKey"));
        assertNull(kernel.decodeNote());
        long[] frames = KEYS.resolve(kernel);
        assertEquals(7, frames.length);
        assertEquals(0xfffff80021434313L, frames[0], "innermost frame of the KeyRundown/KeyDelete of key 0xfffffa8303441010");
        // type 38: ce52e47300000000 a4040000 c00a0000 9023440383faffff
        KernelEvent user = first("StackWalk/StackKeyUser");
        assertEquals(1188, user.processId());
        assertEquals(2752, user.threadId());
        assertEquals(15, KEYS.resolve(user).length);
        long refs = 0;
        for (KernelEvent e : EVENTS) {
            if (StackKeys.isReference(e)) {
                refs++;
                KEYS.resolve(e);
            }
        }
        assertEquals(2061 + 7046, refs);
        assertEquals(0, KEYS.unresolved(), "every key is defined after its references in this file");
        assertEquals(refs + 2, KEYS.resolved());
        // type 35: 10db3e0383faffff 8b6d290580f8ffff ... (20 frames)
        KernelEvent delete = first("StackWalk/KeyDelete");
        assertEquals(0xfffffa83033edb10L, delete.number("stackKey"));
        assertEquals(20, delete.stack().length);
        assertEquals(0xfffff88005296d8bL, delete.stack()[0]);
    }

    @Test
    void tcpIpAndUdpIpOverIpv6AndIpv4() {
        assertEquals(Map.of("SendIPV6", 240, "RecvIPV6", 250), counts(KernelClass.TCP_IP));
        assertEquals(Map.of("Send", 1, "Recv", 19, "SendIPV6", 6, "RecvIPV6", 10), counts(KernelClass.UDP_IP));
        // 04000000 74000100 2001489800e000817cb900ab0cd5e6af 2001489800f00026b18ee85fdb5d08e8 01bd fa19 96070000 96070000 ...
        KernelEvent send = first("TcpIp/SendIPV6");
        assertEquals(4, send.processId());
        assertEquals(65652, send.number("size"));
        assertEquals("2001:4898:e0:81:7cb9:ab:cd5:e6af", send.text("daddr"));
        assertEquals("2001:4898:f0:26:b18e:e85f:db5d:8e8", send.text("saddr"));
        assertEquals(445, send.number("dport"), "ports are in network order: 01bd");
        assertEquals(64025, send.number("sport"));
        assertEquals(1942, send.number("startime"));
        assertEquals(0, send.number("connid"));
        assertNull(send.decodeNote());
        KernelEvent recv = first("TcpIp/RecvIPV6");
        assertEquals(84, recv.number("size"));
        assertTrue(recv.fields().containsKey("connid") && recv.fields().containsKey("seqnum"));
        // UdpIp Send: 04000000 c9000000 0a8003ff 0a800037 008a 008a 00000000 0000000000000000
        KernelEvent udp = first("UdpIp/Send");
        assertEquals("10.128.3.255", udp.text("daddr"));
        assertEquals("10.128.0.55", udp.text("saddr"));
        assertEquals(138, udp.number("dport"));
        assertEquals(201, udp.number("size"));
        // UdpIp SendIPV6: 3c080000 92000000 ff02...000c fe80...4cc0 076c cfc6 ...
        KernelEvent udp6 = first("UdpIp/SendIPV6");
        assertEquals(2108, udp6.processId());
        assertEquals("ff02::c", udp6.text("daddr"));
        assertEquals("fe80::950:d6de:fa84:4cc0", udp6.text("saddr"));
        assertEquals(1900, udp6.number("dport"));
        assertEquals("::1", first("UdpIp/RecvIPV6").text("saddr"));
    }

    @Test
    void machineConfiguration() {
        Map<String, Integer> config = counts(KernelClass.CONFIG);
        assertEquals(1, config.get("CPU"));
        assertEquals(1, config.get("PhyDisk"));
        assertEquals(1, config.get("LogDisk"));
        assertEquals(3, config.get("NIC"));
        assertEquals(157, config.get("Services"));
        assertEquals(78, config.get("PnP"));
        KernelEvent cpu = first("EventTraceConfig/CPU");
        assertEquals(3592, cpu.number("mhz"));
        assertEquals(8, cpu.number("numberOfProcessors"), "the logfile header says 8 CPUs too");
        assertEquals(4096, cpu.number("memSize"));
        assertEquals(65536, cpu.number("allocationGranularity"));
        assertEquals("BRIANROB-W8", cpu.text("computerName"));
        KernelEvent disk = first("EventTraceConfig/PhyDisk");
        assertEquals("Virtual HD ATA Device", disk.text("manufacturer"));
        assertEquals(512, disk.number("bytesPerSector"));
        assertEquals("C", disk.text("bootDriveLetter"));
        KernelEvent volume = first("EventTraceConfig/LogDisk");
        assertEquals("C:", volume.text("driveLetterString"));
        assertEquals("NTFS", volume.text("fileSystem"));
        assertEquals(135_996_112_896L, volume.number("partitionSize"));
        assertEquals(33_202_175L, volume.number("totalNumberOfClusters"));
        KernelEvent nic = first("EventTraceConfig/NIC");
        assertEquals("Microsoft Hyper-V Network Adapter", nic.text("nicDescription"));
        assertTrue(nic.text("ipAddresses").endsWith(";10.128.0.55"), nic.text("ipAddresses"));
        KernelEvent service = first("EventTraceConfig/Services");
        assertEquals("AeLookupSvc", service.text("serviceName"));
        assertEquals("Application Experience", service.text("displayName"));
        KernelEvent pnp = first("EventTraceConfig/PnP");
        assertEquals(4, pnp.version());
        assertEquals("4d36e97d-e325-11ce-bfc1-08002be10318", pnp.text("classGuid"), "the System device class");
        assertEquals("Microsoft Hyper-V S3 Cap", pnp.text("deviceDescription"));
        assertTrue(pnp.decodeNote().contains("not documented by Microsoft"), pnp.decodeNote());
    }
}
