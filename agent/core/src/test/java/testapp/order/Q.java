package testapp.order;

/** Twelve methods for the method-budget tests; loaded only by name, in a loader of the test's own, never by the test class path. */
public class Q {
    public int q0(int x) { return x + 0; }
    public int q1(int x) { return x + 1; }
    public int q2(int x) { return x + 2; }
    public int q3(int x) { return x + 3; }
    public int q4(int x) { return x + 4; }
    public int q5(int x) { return x + 5; }
    public int q6(int x) { return x + 6; }
    public int q7(int x) { return x + 7; }
    public int q8(int x) { return x + 8; }
    public int q9(int x) { return x + 9; }
    public int q10(int x) { return x + 10; }
    public int q11(int x) { return x + 11; }
}
