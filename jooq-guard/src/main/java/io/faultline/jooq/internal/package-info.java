/**
 * Internal: the jOOQ guard's per-transaction state, counters and SQL text handling. Not API: it is
 * public only so the agent's bridge (in another package) can drive the guard, and may change
 * without notice. Use {@link io.faultline.jooq.GuardedTransactionProvider} and {@link
 * io.faultline.jooq.TransactionGuard}.
 */
package io.faultline.jooq.internal;
