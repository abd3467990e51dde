package dev.jetw.analysis.manifest;

import dev.jetw.analysis.kernel.FixtureRecords;
import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EtlRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.eventHeader;
import static dev.jetw.etl.EtlFixtureBuilder.le;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The manifest reader and decoder on a small manifest written here (the constructs the .NET runtime's
 * manifest uses: counts by field name, structs, lengths, custom and standard opcodes, win:Info events
 * named by their task) and records built field by field, 64-bit and 32-bit.
 */
class ManifestDecoderTest {

    private static final UUID PROVIDER = UUID.fromString("11111111-2222-3333-4444-555555555555");
    private static final String MANIFEST = "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">"
            + "<instrumentation><events><provider name=\"Test-Provider\" guid=\"{11111111-2222-3333-4444-555555555555}\" symbol=\"P\">"
            + "<tasks><task name=\"Work\" value=\"1\"><opcodes><opcode name=\"Handoff\" value=\"11\"/></opcodes></task></tasks>"
            + "<templates>"
            + "<template tid=\"Start\"><data name=\"Count\" inType=\"win:UInt32\"/><data name=\"Where\" inType=\"win:Pointer\"/>"
            + "<data name=\"Name\" inType=\"win:UnicodeString\"/><data name=\"Ok\" inType=\"win:Boolean\"/>"
            + "<data name=\"Ratio\" inType=\"win:Double\"/><data name=\"Id\" inType=\"win:GUID\"/></template>"
            + "<template tid=\"Bulk\"><data name=\"N\" inType=\"win:UInt16\"/>"
            + "<struct name=\"Values\" count=\"N\"><data name=\"Key\" inType=\"win:UInt64\" outType=\"win:HexInt64\"/>"
            + "<data name=\"Size\" inType=\"win:UInt8\"/></struct>"
            + "<data name=\"Len\" inType=\"win:UInt16\"/><data name=\"Blob\" inType=\"win:Binary\" length=\"Len\"/></template>"
            + "<template tid=\"Odd\"><data name=\"A\" inType=\"win:UInt8\"/><data name=\"B\" inType=\"win:SYSTEMTIME\"/></template>"
            + "</templates><events>"
            + "<event value=\"1\" version=\"1\" template=\"Start\" task=\"Work\" opcode=\"win:Start\" symbol=\"WorkStart_V1\"/>"
            + "<event value=\"2\" template=\"Bulk\" task=\"Work\" opcode=\"Handoff\" symbol=\"WorkHandoff\"/>"
            + "<event value=\"3\" template=\"Odd\" task=\"Work\" symbol=\"WorkOdd\"/>"
            + "<event value=\"4\" symbol=\"Bare\"/>"
            + "</events></provider></events></instrumentation></instrumentationManifest>";

    @TempDir
    Path tmp;

    private static ManifestDecoder decoder() throws IOException {
        InstrumentationManifest m = new InstrumentationManifest();
        ManifestReader.read(new ByteArrayInputStream(MANIFEST.getBytes(StandardCharsets.UTF_8)), m);
        assertEquals("Test-Provider", m.providerName(PROVIDER));
        assertEquals(4, m.eventCount());
        return new ManifestDecoder(m);
    }

    private List<EtlRecord> records(EtlFixtureBuilder b) throws IOException {
        return FixtureRecords.read(b, tmp);
    }

    private static byte[] event(EtlFixtureBuilder b, boolean is64, int id, int version, byte[] payload) {
        return eventHeader(is64, 7, 8, b.anchor, PROVIDER, id, version, 0, 4, 0, 1, 0, new UUID(0, 0),
                new byte[0][], new int[0], payload);
    }

    @Test
    void fieldsByTemplateWithThePointerSizeOfTheRecord() throws IOException {
        ManifestDecoder d = decoder();
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        UUID id = UUID.fromString("0a0b0c0d-0e0f-1011-1213-141516171819");
        byte[] guid = new byte[16];
        dev.jetw.etl.Guids.put(ByteBuffer.wrap(guid).order(java.nio.ByteOrder.LITTLE_ENDIAN), 0, id);
        ByteBuffer head64 = le(12).putInt(3).putLong(0x7ff612345678L);
        ByteBuffer head32 = le(8).putInt(3).putInt(0x12345678);
        ByteBuffer tail = le(12).putInt(1).putDouble(0.25);
        b.record(event(b, true, 1, 1, concat(head64.array(), utf16z("worker-1"), tail.array(), guid)));
        b.record(event(b, false, 1, 1, concat(head32.array(), utf16z("w"), tail.array(), guid)));
        List<EtlRecord> rs = records(b);
        ManifestEvent e = d.decode(rs.get(0));
        assertEquals("Work/Start", e.name());
        assertEquals("WorkStart_V1", e.symbol());
        assertEquals("Test-Provider", e.provider());
        assertEquals(3, e.number("Count"));
        assertEquals(0x7ff612345678L, e.number("Where"));
        assertTrue(e.isHex("Where"));
        assertEquals("worker-1", e.text("Name"));
        assertEquals(1L, e.fields().get("Ok"));
        assertEquals(0.25, e.fields().get("Ratio"));
        assertEquals(id.toString(), e.text("Id"));
        assertNull(e.note());
        ManifestEvent e32 = d.decode(rs.get(1));
        assertEquals(0x12345678L, e32.number("Where"), "a 32-bit record's pointer is 4 bytes");
        assertEquals(id.toString(), e32.text("Id"));
        assertNull(e32.note());
    }

    @Test
    void structsCountedByAFieldBinaryByLengthAndWhatIsNotDecoded() throws IOException {
        ManifestDecoder d = decoder();
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        ByteBuffer bulk = le(2 + 2 * 9 + 2 + 3 + 4);
        bulk.putShort((short) 2).putLong(0xA0L).put((byte) 1).putLong(0xB0L).put((byte) 2).putShort((short) 3)
                .put((byte) 0xde).put((byte) 0xad).put((byte) 0x01).putInt(0);
        b.record(event(b, true, 2, 0, bulk.array()));
        b.record(event(b, true, 3, 0, new byte[]{9, 1, 2}));
        b.record(event(b, true, 1, 7, new byte[4]));
        b.record(event(b, true, 99, 0, new byte[4]));
        b.record(event(b, true, 1, 1, new byte[6]));
        List<EtlRecord> rs = records(b);
        ManifestEvent handoff = d.decode(rs.get(0));
        assertEquals("Work/Handoff", handoff.name(), "a custom opcode by its name");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> values = (List<Map<String, Object>>) handoff.fields().get("Values");
        assertEquals(2, values.size());
        assertEquals(0xB0L, values.get(1).get("Key"));
        assertEquals(2L, values.get(1).get("Size"));
        assertEquals("dead01", handoff.text("Blob"));
        assertEquals("4 bytes after the template's fields are not decoded", handoff.note());
        ManifestEvent odd = d.decode(rs.get(1));
        assertEquals("Work", odd.name(), "a win:Info event goes by its task");
        assertEquals(9, odd.number("A"));
        assertTrue(odd.note().contains("win:SYSTEMTIME of B is not decoded"), odd.note());
        ManifestEvent otherVersion = d.decode(rs.get(2));
        assertEquals("Work/Start", otherVersion.name());
        assertTrue(otherVersion.fields().isEmpty());
        assertTrue(otherVersion.note().contains("version 7 is not in the manifest"), otherVersion.note());
        assertNull(d.decode(rs.get(3)), "an id the manifest does not declare");
        ManifestEvent cut = d.decode(rs.get(4));
        assertEquals(Map.of("Count", 0L), cut.fields(), "the fields before the cut are kept");
        assertTrue(cut.note().contains("Where"), cut.note());
    }

    @Test
    void aManifestWithADoctypeIsRefused() {
        String evil = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><instrumentationManifest/>";
        assertThrows(IOException.class, () -> ManifestReader.read(new ByteArrayInputStream(evil.getBytes(StandardCharsets.UTF_8)),
                new InstrumentationManifest()));
    }
}
