package testapp;

import java.util.function.IntUnaryOperator;

/**
 * Methods of awkward shapes for the weaving tests (LinkedCallWeaverTest): every return type, wide locals, loops
 * at the first instruction, handlers, locks, switches, lambdas, an uninitialized object on the stack at a branch,
 * throwing, recursion. No nested classes: the tests define this class alone in a loader of their own.
 */
public class Shapes {

    private int field = 3;
    private final Object lock = new Object();

    public static void none() {
    }

    public static boolean bool(int x) {
        return x > 0;
    }

    public static byte aByte(int x) {
        return (byte) x;
    }

    public static char aChar(int x) {
        return (char) ('a' + x);
    }

    public static short aShort(int x) {
        return (short) (x * 300);
    }

    public static int anInt(int x) {
        return x * 7;
    }

    public static long aLong(long x) {
        return x * 1_000_000_007L;
    }

    public static float aFloat(float x) {
        return x / 3f;
    }

    public static double aDouble(double x) {
        return x * Math.PI;
    }

    public static String anObject(int x) {
        return "o" + x;
    }

    public static int[] anArray(int x) {
        return new int[] {x, x + 1};
    }

    /** Instance, with two-slot parameters between the others and an array. */
    public double mixed(long a, double b, int[] c, String d, float e) {
        return a + b + c.length + d.length() + e + field;
    }

    /** A long local at the top slot: the token goes right above it. */
    public static long longLocalAtTop(int n) {
        int i = n;
        long last = i * 2L;
        return last;
    }

    /** A backward jump to the first instruction: a frame at offset 0. */
    public static int loopAtStart(int n) {
        while (n > 10) {
            n -= 3;
        }
        return n;
    }

    /** A loop's local goes out of scope after it: the class file's frame there chops it (JVMS chop_frame). */
    public static int localsChoppedAfterALoop(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += i * i;
        }
        if (sum > 100) {
            sum -= 100;
        }
        return sum;
    }

    public static int doWhileAtStart(int n) {
        do {
            n--;
        } while (n > 0);
        return n;
    }

    public static int tryCatchFinally(int x) {
        int r = 0;
        try {
            if (x < 0) {
                throw new IllegalArgumentException("negative");
            }
            r = x;
        } catch (IllegalArgumentException e) {
            r = -1;
        } finally {
            r += 100;
        }
        return r;
    }

    public int synchronizedBlock(int x) {
        synchronized (lock) {
            field += x;
            return field;
        }
    }

    public synchronized int synchronizedMethod(int x) {
        return field * x;
    }

    public static int tableSwitch(int x) {
        switch (x) {
            case 0: return 10;
            case 1: return 11;
            case 2: return 12;
            case 3: return 13;
            default: return -1;
        }
    }

    public static int lookupSwitch(int x) {
        switch (x) {
            case -1000: return 1;
            case 7: return 2;
            case 1 << 20: return 3;
            default: return 0;
        }
    }

    public static int stringSwitch(String s) {
        switch (s) {
            case "a": return 1;
            case "b": return 2;
            default: return 0;
        }
    }

    public static int lambda(int x) {
        int k = x + 1;
        IntUnaryOperator f = v -> v * k;
        return f.applyAsInt(x);
    }

    /** An uninitialized object on the operand stack at a branch target (a frame holding it). */
    public static String uninitializedOnStack(boolean flag) {
        return new StringBuilder(flag ? "yes" : "no").append('!').toString();
    }

    public static void onlyThrows(String message) {
        throw new IllegalStateException(message);
    }

    public static int catchesWhatItCalls(int x) {
        try {
            onlyThrows("inner " + x);
            return 0;
        } catch (IllegalStateException e) {
            return e.getMessage().length();
        }
    }

    public static int propagates(int x) {
        return anInt(x) + thrower(x);
    }

    private static int thrower(int x) {
        throw new UnsupportedOperationException("no " + x);
    }

    public static int nested(int x) {
        return anInt(x) + (int) aLong(x) + anObject(x).length();
    }

    public static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    public static int earlyReturns(int x) {
        if (x == 0) {
            return 0;
        }
        if (x == 1) {
            return 1;
        }
        return x < 0 ? -1 : 2;
    }

    /** More than 255 local slots: the token and the thrown value need wide loads and stores. */
    public static long wide(long seed) {
        long v0 = seed + 0;
        long v1 = seed + 1;
        long v2 = seed + 2;
        long v3 = seed + 3;
        long v4 = seed + 4;
        long v5 = seed + 5;
        long v6 = seed + 6;
        long v7 = seed + 7;
        long v8 = seed + 8;
        long v9 = seed + 9;
        long v10 = seed + 10;
        long v11 = seed + 11;
        long v12 = seed + 12;
        long v13 = seed + 13;
        long v14 = seed + 14;
        long v15 = seed + 15;
        long v16 = seed + 16;
        long v17 = seed + 17;
        long v18 = seed + 18;
        long v19 = seed + 19;
        long v20 = seed + 20;
        long v21 = seed + 21;
        long v22 = seed + 22;
        long v23 = seed + 23;
        long v24 = seed + 24;
        long v25 = seed + 25;
        long v26 = seed + 26;
        long v27 = seed + 27;
        long v28 = seed + 28;
        long v29 = seed + 29;
        long v30 = seed + 30;
        long v31 = seed + 31;
        long v32 = seed + 32;
        long v33 = seed + 33;
        long v34 = seed + 34;
        long v35 = seed + 35;
        long v36 = seed + 36;
        long v37 = seed + 37;
        long v38 = seed + 38;
        long v39 = seed + 39;
        long v40 = seed + 40;
        long v41 = seed + 41;
        long v42 = seed + 42;
        long v43 = seed + 43;
        long v44 = seed + 44;
        long v45 = seed + 45;
        long v46 = seed + 46;
        long v47 = seed + 47;
        long v48 = seed + 48;
        long v49 = seed + 49;
        long v50 = seed + 50;
        long v51 = seed + 51;
        long v52 = seed + 52;
        long v53 = seed + 53;
        long v54 = seed + 54;
        long v55 = seed + 55;
        long v56 = seed + 56;
        long v57 = seed + 57;
        long v58 = seed + 58;
        long v59 = seed + 59;
        long v60 = seed + 60;
        long v61 = seed + 61;
        long v62 = seed + 62;
        long v63 = seed + 63;
        long v64 = seed + 64;
        long v65 = seed + 65;
        long v66 = seed + 66;
        long v67 = seed + 67;
        long v68 = seed + 68;
        long v69 = seed + 69;
        long v70 = seed + 70;
        long v71 = seed + 71;
        long v72 = seed + 72;
        long v73 = seed + 73;
        long v74 = seed + 74;
        long v75 = seed + 75;
        long v76 = seed + 76;
        long v77 = seed + 77;
        long v78 = seed + 78;
        long v79 = seed + 79;
        long v80 = seed + 80;
        long v81 = seed + 81;
        long v82 = seed + 82;
        long v83 = seed + 83;
        long v84 = seed + 84;
        long v85 = seed + 85;
        long v86 = seed + 86;
        long v87 = seed + 87;
        long v88 = seed + 88;
        long v89 = seed + 89;
        long v90 = seed + 90;
        long v91 = seed + 91;
        long v92 = seed + 92;
        long v93 = seed + 93;
        long v94 = seed + 94;
        long v95 = seed + 95;
        long v96 = seed + 96;
        long v97 = seed + 97;
        long v98 = seed + 98;
        long v99 = seed + 99;
        long v100 = seed + 100;
        long v101 = seed + 101;
        long v102 = seed + 102;
        long v103 = seed + 103;
        long v104 = seed + 104;
        long v105 = seed + 105;
        long v106 = seed + 106;
        long v107 = seed + 107;
        long v108 = seed + 108;
        long v109 = seed + 109;
        long v110 = seed + 110;
        long v111 = seed + 111;
        long v112 = seed + 112;
        long v113 = seed + 113;
        long v114 = seed + 114;
        long v115 = seed + 115;
        long v116 = seed + 116;
        long v117 = seed + 117;
        long v118 = seed + 118;
        long v119 = seed + 119;
        long v120 = seed + 120;
        long v121 = seed + 121;
        long v122 = seed + 122;
        long v123 = seed + 123;
        long v124 = seed + 124;
        long v125 = seed + 125;
        long v126 = seed + 126;
        long v127 = seed + 127;
        long v128 = seed + 128;
        long v129 = seed + 129;
        return v0 + v13 + v26 + v39 + v52 + v65 + v78 + v91 + v104 + v117;
    }
}
