package testapp.order;

/** Twelve methods for the method-budget tests; loaded only by name, in a loader of the test's own, never by the test class path. */
public class R {
    public int r0(int x) { return x + 0; }
    public int r1(int x) { return x + 1; }
    public int r2(int x) { return x + 2; }
    public int r3(int x) { return x + 3; }
    public int r4(int x) { return x + 4; }
    public int r5(int x) { return x + 5; }
    public int r6(int x) { return x + 6; }
    public int r7(int x) { return x + 7; }
    public int r8(int x) { return x + 8; }
    public int r9(int x) { return x + 9; }
    public int r10(int x) { return x + 10; }
    public int r11(int x) { return x + 11; }
}
