package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFileException;
import dev.jetw.etl.EtlProblem;
import dev.jetw.etl.EtlReader;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;

/**
 * Runs a command's work on one file and turns the outcome into an exit status, with one line on
 * stderr per problem: a file that cannot be read at all, each corrupt buffer, a truncation, and
 * problems the command itself finds (events lost).
 */
final class EtlFileRun {

    /** What a command does with an open file. */
    interface Work {
        void read(EtlReader reader) throws IOException;
    }

    /** Work that finds problems of its own beyond the reader's (e.g. events lost): one line each. */
    interface ReportingWork {
        List<String> read(EtlReader reader) throws IOException;
    }

    private EtlFileRun() {
    }

    static int run(Path file, PrintStream err, Work work) {
        return runReporting(file, err, reader -> {
            work.read(reader);
            return Collections.emptyList();
        });
    }

    /** As {@link #run}; the work's own problems are printed after the reader's and make the file {@link EtlTool#INCOMPLETE}. */
    static int runReporting(Path file, PrintStream err, ReportingWork work) {
        try (EtlReader reader = EtlReader.open(file)) {
            List<String> own = work.read(reader);
            int status = EtlTool.OK;
            for (EtlProblem p : reader.problems()) {
                err.println("jetw etl: " + file + ": " + p.message());
                status = EtlTool.worse(status,
                        p.kind() == EtlProblem.Kind.TRUNCATED ? EtlTool.TRUNCATED : EtlTool.BAD_FILE);
            }
            for (String p : own) {
                err.println("jetw etl: " + file + ": " + p);
                status = EtlTool.worse(status, EtlTool.INCOMPLETE);
            }
            return status;
        } catch (EtlFileException e) {
            err.println("jetw etl: " + e.getMessage());
            return EtlTool.BAD_FILE;
        } catch (IOException e) {
            err.println("jetw etl: " + file + ": read error: " + e.getMessage());
            return EtlTool.BAD_FILE;
        }
    }
}
