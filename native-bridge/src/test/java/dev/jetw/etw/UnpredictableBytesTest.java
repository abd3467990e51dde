package dev.jetw.etw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The random part of default file names and the control channel's token: the kernel's device, else SecureRandom. */
class UnpredictableBytesTest {

    @TempDir
    Path dir;

    @Test
    void hexIsTwoLowerCaseDigitsPerByteAndNoTwoDrawsAlike() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 64; i++) {
            String h = UnpredictableBytes.hex(4);
            assertTrue(h.matches("[0-9a-f]{8}"), h);
            assertTrue(seen.add(h), "32 random bits twice alike in 64 draws: " + seen);
        }
        assertEquals("00ff7f80", UnpredictableBytes.hex(new byte[] {0, (byte) 0xFF, 0x7F, (byte) 0x80}));
    }

    @Test
    void theBytesAreTheDevicesWhereThereIsOne() throws IOException {
        Path device = dir.resolve("urandom");
        byte[] content = {1, 2, 3, 4, 5, 6, 7, 8};
        Files.write(device, content);
        byte[] bytes = new byte[8];
        UnpredictableBytes.fill(bytes, device.toString());
        assertArrayEquals(content, bytes, "read from the device, not from a generator of its own");
    }

    @Test
    void withoutTheDeviceOrWhenItRunsShortSecureRandomFillsThem() throws IOException {
        byte[] bytes = new byte[32];
        UnpredictableBytes.fill(bytes, dir.resolve("none").toString());
        assertFalse(allZero(bytes), "filled without a device");
        Path shortDevice = dir.resolve("short");
        Files.write(shortDevice, new byte[] {9, 9});
        byte[] more = new byte[32];
        UnpredictableBytes.fill(more, shortDevice.toString());
        assertFalse(allZero(java.util.Arrays.copyOfRange(more, 2, 32)), "a device that ends early is not trusted for the rest");
    }

    @Test
    void onWindowsNoFileNamedLikeTheDeviceIsRead() {
        // "/dev/urandom" names a folder dev in the current drive's root there: any local user could create it.
        assertEquals(null, UnpredictableBytes.kernelDevice('\\'));
        if (Files.exists(Path.of(UnpredictableBytes.DEVICE))) {
            assertEquals(UnpredictableBytes.DEVICE, UnpredictableBytes.kernelDevice('/'), "a character device here");
        }
    }

    @Test
    void onThisHostTheKernelsDeviceIsRead() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(Path.of(UnpredictableBytes.DEVICE)),
                "no " + UnpredictableBytes.DEVICE + " here (Windows): SecureRandom is used");
        byte[] a = new byte[32];
        byte[] b = new byte[32];
        UnpredictableBytes.fill(a);
        UnpredictableBytes.fill(b);
        assertFalse(java.util.Arrays.equals(a, b));
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}
