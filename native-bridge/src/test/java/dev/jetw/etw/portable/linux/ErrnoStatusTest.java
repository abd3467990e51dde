package dev.jetw.etw.portable.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** errno → the NTSTATUS Windows reports for the same failure (docs/linux-kernel-events.md's table), row by row. */
class ErrnoStatusTest {

    @Test
    void eachErrnoOfTheTableGivesItsStatus() {
        int[][] table = {
            {1, 0xC0000022}, {2, 0xC0000034}, {4, 0xC0000120}, {5, 0xC0000185}, {9, 0xC0000008}, {11, 0xC00000D8},
            {12, 0xC0000017}, {13, 0xC0000022}, {14, 0xC0000005}, {17, 0xC0000035}, {20, 0xC0000103},
            {21, 0xC00000BA}, {22, 0xC000000D}, {23, 0xC000011F}, {24, 0xC000011F}, {26, 0xC0000043},
            {27, 0xC0000904}, {28, 0xC000007F}, {30, 0xC00000A2}, {36, 0xC0000106}, {95, 0xC00000BB},
            {122, 0xC0000044},
        };
        for (int[] row : table) {
            assertEquals(row[1], ErrnoStatus.ofErrno(row[0]), "errno " + row[0]);
            assertEquals(row[1], ErrnoStatus.of(-row[0]), "return value -" + row[0]);
        }
    }

    @Test
    void successAndUnknownErrnos() {
        assertEquals(0, ErrnoStatus.of(0));
        assertEquals(0, ErrnoStatus.of(4096), "a byte count is success");
        assertEquals(0xC0000001, ErrnoStatus.ofErrno(71), "EPROTO: not in the table: STATUS_UNSUCCESSFUL");
    }
}
