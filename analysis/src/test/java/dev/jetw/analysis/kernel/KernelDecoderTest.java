package dev.jetw.analysis.kernel;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EtlFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.le;
import static dev.jetw.etl.EtlFixtureBuilder.systemLike;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kernel classes the sample files do not hold, built field by field per the MOF layouts in
 * docs/kernel-events.md and read back through the reader: 64-bit records, and 32-bit records in the
 * same 64-bit file (pointers of 4 bytes).
 */
class KernelDecoderTest {

    @TempDir
    Path tmp;

    private final EtlFixtureBuilder b = new EtlFixtureBuilder();

    private List<KernelEvent> read() throws IOException {
        return FixtureRecords.kernelEvents(b, tmp);
    }

    private static byte[] cswitch(int newTid, int oldTid, int waitReason, int state, int waitTime) {
        ByteBuffer p = le(24);
        p.putInt(newTid).putInt(oldTid).put((byte) 9).put((byte) 8).put((byte) 1).put((byte) 0)
                .put((byte) waitReason).put((byte) 1).put((byte) state).put((byte) 3).putInt(waitTime).putInt(0);
        return p.array();
    }

    @Test
    void cswitchAndReadyThread() throws IOException {
        b.record(systemLike(EtlFormat.HT_COMPACT64, 2, 0x05, 36, 0, 0, b.anchor, cswitch(1200, 1100, 6, 5, 777)));
        b.record(systemLike(EtlFormat.HT_SYSTEM64, 2, 0x05, 50, 1300, 4, b.anchor + 1,
                le(8).putInt(1200).put((byte) 1).put((byte) 2).put((byte) 0).put((byte) 0).array()));
        List<KernelEvent> k = read();
        KernelEvent cs = k.get(0);
        assertEquals("Thread/CSwitch", cs.fullName());
        assertEquals(1200, cs.newThreadId());
        assertEquals(1100, cs.oldThreadId());
        assertEquals(1200, cs.threadId());
        assertEquals(6, cs.oldThreadWaitReason());
        assertEquals(5, cs.oldThreadState());
        assertEquals(777, cs.newThreadWaitTime());
        assertEquals(9, cs.number("newThreadPriority"));
        assertNull(cs.decodeNote());
        KernelEvent ready = k.get(1);
        assertEquals("Thread/ReadyThread", ready.fullName());
        assertEquals(1200, ready.threadId(), "the readied thread, not the header's");
        assertEquals(1300, ready.record().threadId());
        assertEquals(2, ready.number("adjustIncrement"));
    }

    @Test
    void diskIoReadWriteFlushVersion3() throws IOException {
        byte[] read = le(56).putInt(1).putInt(0x43).putInt(65536).putInt(0).putLong(0x1234000L)
                .putLong(0xffff800011112222L).putLong(0xffff800033334444L).putLong(52_000).putInt(4321).array();
        b.record(systemLike(EtlFormat.HT_SYSTEM64, 3, 0x01, 10, 0, 4, b.anchor, read));
        b.record(systemLike(EtlFormat.HT_SYSTEM64, 3, 0x01, 14, 0, 4, b.anchor,
                le(28).putInt(2).putInt(0).putLong(900).putLong(0xffff800055556666L).putInt(99).array()));
        b.record(systemLike(EtlFormat.HT_SYSTEM64, 3, 0x01, 12, 0, 4, b.anchor,
                le(12).putLong(0xffff800033334444L).putInt(4321).array()));
        List<KernelEvent> k = read();
        KernelEvent r = k.get(0);
        assertEquals("DiskIo/Read", r.fullName());
        assertEquals(1, r.number("diskNumber"));
        assertEquals(65536, r.size());
        assertEquals(0x1234000L, r.byteOffset());
        assertEquals(0xffff800033334444L, r.number("irp"));
        assertEquals(52_000, r.elapsedTicks());
        assertEquals(4321, r.threadId(), "IssuingThreadId");
        KernelEvent flush = k.get(1);
        assertEquals("DiskIo/FlushBuffers", flush.fullName());
        assertEquals(900, flush.elapsedTicks());
        assertEquals(99, flush.threadId());
        assertEquals("DiskIo/ReadInit", k.get(2).fullName());
        assertEquals(0xffff800033334444L, k.get(2).number("irp"));
    }

    @Test
    void fileIoCreateReadAndName() throws IOException {
        byte[] create = concat(le(36).putLong(0xA1).putLong(777).putLong(0xF0).putInt(0x20).putInt(0x80).putInt(7).array(),
                utf16z("C:\\data\\x.bin"));
        b.record(systemLike(EtlFormat.HT_SYSTEM64, 2, 0x04, 64, 777, 4, b.anchor, create));
        b.record(systemLike(EtlFormat.HT_SYSTEM64, 2, 0x04, 67, 777, 4, b.anchor,
                le(48).putLong(4096).putLong(0xA2).putLong(777).putLong(0xF0).putLong(0xF1).putInt(512).putInt(0).array()));
        b.record(systemLike(EtlFormat.HT_SYSTEM64, 2, 0x04, 0, 0, 0, b.anchor,
                concat(le(8).putLong(0xF0).array(), utf16z("\\Device\\HarddiskVolume1\\data\\x.bin"))));
        List<KernelEvent> k = read();
        assertEquals("FileIo/Create", k.get(0).fullName());
        assertEquals("C:\\data\\x.bin", k.get(0).fileName());
        assertEquals(0xF0, k.get(0).number("fileObject"));
        assertEquals(777, k.get(0).threadId());
        assertEquals("FileIo/Read", k.get(1).fullName());
        assertEquals(512, k.get(1).size());
        assertEquals(4096, k.get(1).byteOffset());
        assertEquals("FileIo/Name", k.get(2).fullName());
        assertEquals("\\Device\\HarddiskVolume1\\data\\x.bin", k.get(2).fileName());
        assertEquals(0xF0, k.get(2).number("fileKey"), "FileIo_Name's pointer is the FileKey");
    }

    /** Windows 8+ writes version 3: TTID a 4-byte field after FileKey (after FileObject in Create). */
    @Test
    void fileIoVersion3Layouts() throws IOException {
        byte[] create = concat(le(32).putLong(0xA1).putLong(0xF0).putInt(777).putInt(0x01000020).putInt(0x80).putInt(7)
                .array(), utf16z("C:\\data\\x.bin"));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 3, 0x04, 64, 0, 0, b.anchor, create));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 3, 0x04, 68, 0, 0, b.anchor,
                le(48).putLong(4096).putLong(0xA2).putLong(0xF0).putLong(0xE1).putInt(777).putInt(512).putInt(0x10)
                        .putInt(0).array()));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 3, 0x04, 73, 0, 0, b.anchor,
                le(28).putLong(0xA3).putLong(0xF0).putLong(0xE1).putInt(778).array()));
        List<KernelEvent> k = read();
        KernelEvent c = k.get(0);
        assertEquals("FileIo/Create", c.fullName());
        assertEquals(0xF0, c.number("fileObject"));
        assertEquals(777, c.threadId());
        assertEquals(0x01000020, c.number("createOptions"));
        assertEquals(7, c.number("shareAccess"));
        assertEquals("C:\\data\\x.bin", c.fileName());
        assertNull(c.decodeNote());
        KernelEvent w = k.get(1);
        assertEquals("FileIo/Write", w.fullName());
        assertEquals(0xA2, w.number("irpPtr"));
        assertEquals(0xF0, w.number("fileObject"));
        assertEquals(0xE1, w.number("fileKey"));
        assertEquals(777, w.threadId());
        assertEquals(512, w.size());
        assertEquals(0x10, w.number("ioFlags"));
        KernelEvent fl = k.get(2);
        assertEquals("FileIo/Flush", fl.fullName());
        assertEquals(0xF0, fl.number("fileObject"));
        assertEquals(0xE1, fl.number("fileKey"));
        assertEquals(778, fl.threadId());
    }

    @Test
    void hardFaultSampledProfileAndStackWalk() throws IOException {
        b.record(systemLike(EtlFormat.HT_SYSTEM64, 2, 0x02, 32, 0, 0, b.anchor,
                le(40).putLong(5000).putLong(0x8000).putLong(0x7ff000010000L).putLong(0xF5).putInt(31).putInt(16384).array()));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, 0x0F, 46, 0, 0, b.anchor,
                le(16).putLong(0x7ff612345678L).putInt(31).putShort((short) 1).putShort((short) 0).array()));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, 0x18, 32, 0, 0, b.anchor,
                le(40).putLong(b.anchor).putInt(4242).putInt(31).putLong(0x7ff6aaaa0001L).putLong(0x7ff6bbbb0002L)
                        .putLong(0xfffff80012345678L).array()));
        List<KernelEvent> k = read();
        assertEquals("PageFault/HardFault", k.get(0).fullName());
        assertEquals(31, k.get(0).threadId());
        assertEquals(16384, k.get(0).number("byteCount"));
        assertEquals(0x8000, k.get(0).byteOffset());
        assertEquals("PerfInfo/SampledProfile", k.get(1).fullName());
        assertEquals(31, k.get(1).threadId());
        assertEquals(0x7ff612345678L, k.get(1).number("instructionPointer"));
        assertEquals("StackWalk/Stack", k.get(2).fullName());
        assertEquals(31, k.get(2).threadId());
        assertEquals(4242, k.get(2).processId());
        assertArrayEquals(new long[]{0x7ff6aaaa0001L, 0x7ff6bbbb0002L, 0xfffff80012345678L}, k.get(2).stack());
    }

    @Test
    void thirtyTwoBitRecordsInASixtyFourBitFileHaveFourBytePointers() throws IOException {
        b.record(systemLike(EtlFormat.HT_PERFINFO32, 2, 0x0F, 46, 0, 0, b.anchor,
                le(12).putInt(0x00401000).putInt(55).putShort((short) 1).putShort((short) 0).array()));
        byte[] image = concat(le(40).putInt(0x10000000).putInt(0x5000).putInt(88).putInt(1).putInt(2).putInt(0)
                .putInt(0x10000000).array(), new byte[16], utf16z("C:\\x86\\a.dll"));
        b.record(systemLike(EtlFormat.HT_SYSTEM32, 3, 0x14, 10, 5, 88, b.anchor, java.util.Arrays.copyOfRange(image, 0, 24)));
        b.record(systemLike(EtlFormat.HT_SYSTEM32, 3, 0x14, 10, 5, 88, b.anchor, concat(java.util.Arrays.copyOfRange(image, 0, 28),
                java.util.Arrays.copyOfRange(image, 40, image.length))));
        List<KernelEvent> k = read();
        assertEquals(0x00401000, k.get(0).number("instructionPointer"));
        assertEquals(55, k.get(0).threadId());
        KernelEvent cut = k.get(1);
        assertEquals("Image/Load", cut.fullName());
        assertEquals(88, cut.processId(), "the fields before the cut are kept");
        assertTrue(cut.decodeNote().contains("payload ends at byte 24"), cut.decodeNote());
        KernelEvent whole = k.get(2);
        assertEquals(0x10000000, whole.number("imageBase"));
        assertEquals(0x5000, whole.number("imageSize"));
        assertEquals("C:\\x86\\a.dll", whole.fileName());
        assertNull(whole.decodeNote());
    }

    @Test
    void undocumentedVersionsKeepTheirNameAndSaySo() throws IOException {
        b.record(systemLike(EtlFormat.HT_SYSTEM64, 9, 0x01, 10, 0, 0, b.anchor, new byte[8]));
        b.record(systemLike(EtlFormat.HT_SYSTEM64, 2, 0x1B, 7, 0, 0, b.anchor, new byte[8]));
        List<KernelEvent> k = read();
        assertEquals("DiskIo/Read", k.get(0).fullName());
        assertTrue(k.get(0).fields().isEmpty());
        assertEquals("DiskIo version 9 is not decoded (no documented layout)", k.get(0).decodeNote());
        assertEquals("SplitIo/type 7", k.get(1).fullName());
        assertEquals("d837ca92-12b9-44a5-ad6a-3a65b3578aa8", k.get(1).kernelClass().guid().toString());
    }

    /**
     * Thread names: Thread_TypeGroup1 version 4 ends with ThreadName (wmicore.mof's Thread_V4), and
     * Thread/SetName (type 72: ProcessId, ThreadId, ThreadName, as PerfView's TraceEvent registers it)
     * renames a thread; version 3 has no name.
     */
    @Test
    void threadNamesFromVersion4RecordsAndSetName() throws IOException {
        b.record(dev.jetw.etl.KernelRecords.thread(b.anchor, 3, 4242, 5001, "G1 Conc#0"));
        b.record(dev.jetw.etl.KernelRecords.setName(b.anchor + 1, 4242, 5002, "C2 CompilerThread0"));
        b.record(dev.jetw.etl.KernelRecords.thread(b.anchor + 2, 1, 4242, 5003, null));
        List<KernelEvent> k = read();
        KernelEvent dcStart = k.get(0);
        assertEquals("Thread/DCStart", dcStart.fullName());
        assertEquals(5001, dcStart.threadId());
        assertEquals(8, dcStart.number("basePriority"));
        assertEquals("G1 Conc#0", dcStart.text("threadName"));
        assertEquals("G1 Conc#0", dcStart.threadName());
        assertNull(dcStart.decodeNote());
        KernelEvent setName = k.get(1);
        assertEquals("Thread/SetName", setName.fullName());
        assertEquals(4242, setName.processId());
        assertEquals(5002, setName.threadId());
        assertEquals("C2 CompilerThread0", setName.threadName());
        assertNull(setName.decodeNote());
        assertNull(k.get(2).threadName(), "version 3 carries no name");
        assertNull(k.get(2).decodeNote());
    }

    /**
     * The TcpIp/UdpIp classes the sample does not hold, built per Microsoft's pages: TcpIp_TypeGroup2 (IPv4
     * Connect) in a 32-bit record (connid of 4 bytes), TcpIp_TypeGroup4 (AcceptIPV6), TcpIp_SendIPV4 and UdpIp_Fail.
     */
    @Test
    void tcpIpConnectAcceptSendAndUdpFail() throws IOException {
        ByteBuffer connect = le(4 + 4 + 4 + 4 + 2 + 2 + 8 + 4 + 4 + 4 + 4);
        connect.putInt(1234).putInt(0).put(new byte[]{(byte) 192, 0, 2, 1}).put(new byte[]{10, 0, 0, 7})
                .put((byte) 0x1f).put((byte) 0x90).put((byte) 0xc3).put((byte) 0x50) // ports 8080, 50000 in network order
                .putShort((short) 1460).putShort((short) 1).putShort((short) 0).putShort((short) 1)
                .putInt(65535).putShort((short) -1).putShort((short) 8).putInt(77).putInt(0xCAFE);
        ByteBuffer accept = le(4 + 4 + 16 + 16 + 2 + 2 + 8 + 4 + 4 + 4 + 8);
        byte[] loopback = new byte[16];
        loopback[15] = 1;
        accept.putInt(99).putInt(0).put(loopback).put(loopback).put((byte) 0).put((byte) 80).put((byte) 0xea).put((byte) 0x60)
                .putShort((short) 65476).putShort((short) 1).putShort((short) 1).putShort((short) 1).putInt(1000)
                .putShort((short) 7).putShort((short) 7).putInt(5).putLong(0xffffa00012345678L);
        ByteBuffer send = le(4 + 4 + 4 + 4 + 2 + 2 + 4 + 4 + 4 + 8);
        send.putInt(1234).putInt(1500).put(new byte[]{10, 0, 0, 7}).put(new byte[]{(byte) 192, 0, 2, 1})
                .put((byte) 0xc3).put((byte) 0x50).put((byte) 0x1f).put((byte) 0x90).putInt(10).putInt(12).putInt(3).putLong(0x42L);
        b.record(systemLike(EtlFormat.HT_SYSTEM32, 2, 0x06, 12, 0, 4, b.anchor, connect.array()));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, 0x06, 31, 0, 0, b.anchor + 1, accept.array()));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, 0x06, 10, 0, 0, b.anchor + 2, send.array()));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, 0x08, 17, 0, 0, b.anchor + 3, le(4).putShort((short) 17).putShort((short) 5).array()));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 1, 0x06, 11, 0, 0, b.anchor + 4, new byte[8]));
        List<KernelEvent> k = read();
        KernelEvent c = k.get(0);
        assertEquals("TcpIp/Connect", c.fullName());
        assertEquals(1234, c.processId());
        assertEquals("192.0.2.1", c.text("daddr"));
        assertEquals("10.0.0.7", c.text("saddr"));
        assertEquals(8080, c.number("dport"));
        assertEquals(50000, c.number("sport"));
        assertEquals(1460, c.number("mss"));
        assertEquals(65535, c.number("rcvwin"));
        assertEquals(-1, c.number("rcvwinscale"));
        assertEquals(8, c.number("sndwinscale"));
        assertEquals(77, c.number("seqnum"));
        assertEquals(0xCAFE, c.number("connid"), "a 32-bit record's connid is 4 bytes");
        assertNull(c.decodeNote());
        KernelEvent a = k.get(1);
        assertEquals("TcpIp/AcceptIPV6", a.fullName());
        assertEquals("::1", a.text("daddr"));
        assertEquals(80, a.number("dport"));
        assertEquals(60000, a.number("sport"));
        assertEquals(65476, a.number("mss"));
        assertEquals(0xffffa00012345678L, a.number("connid"));
        assertNull(a.decodeNote());
        KernelEvent s = k.get(2);
        assertEquals("TcpIp/Send", s.fullName());
        assertEquals(1500, s.number("size"));
        assertEquals(10, s.number("startime"));
        assertEquals(12, s.number("endtime"));
        assertEquals(0x42, s.number("connid"));
        KernelEvent fail = k.get(3);
        assertEquals("UdpIp/Fail", fail.fullName());
        assertEquals(17, fail.number("proto"));
        assertEquals(5, fail.number("failureCode"));
        KernelEvent v1 = k.get(4);
        assertEquals("TcpIp/Recv", v1.fullName());
        assertTrue(v1.fields().isEmpty());
        assertTrue(v1.decodeNote().contains("version 1 is not decoded"), v1.decodeNote());
    }
}
