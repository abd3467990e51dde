/**
 * The agent's core, loaded in the isolated class loader (docs/agent-dist.md). The root holds the entry and
 * what outside code reaches by name: {@link dev.jetw.agent.core.AgentMain} (premain, agentmain, the control
 * commands), {@link dev.jetw.agent.core.Agent} (one attached agent: wires the rooms together, starts and stops
 * them), {@link dev.jetw.agent.core.MofSchema} ({@code ./jetw mof}) and
 * {@link dev.jetw.agent.core.AgentSessionOptions} (the selftest's view of the options).
 *
 * <p>The rooms, one responsibility each, and the only arrows between them (a room uses the rooms it points
 * to, never the other way; the root uses them all, none uses the root):
 * <pre>
 * options     the option string parsed and validated: AgentOptions, rules, patterns, durations, hotMethods=
 * methods     which methods are traced: Selection, the budget, the MethodRegistry (ids, levels, thresholds) -&gt; options
 * exclusion   adaptive exclusion and the remover of excluded methods' advice                 -&gt; methods, options
 * writing     the event writers on the application's threads: calls, hand-offs, rundown      -&gt; exclusion, methods, options
 * instrument  Byte Buddy: the call and API advice put into the selected methods              -&gt; writing, exclusion, methods, options
 * handoff     the hand-off advice put into the JDK's executors (cross-thread links)
 * runtime     the JVM runtime events (JFR or GC notifications) and their writer              -&gt; writing
 * session     the ETW session the agent owns, its event accounting, dump file names
 * control     the control channel between the attach tool and the agent
 * </pre>
 * The selftest ({@code selftest}) uses only the root's public classes.
 */
package dev.jetw.agent.core;
