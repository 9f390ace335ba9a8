/**
 * Internal: a JVM-wide tap on what Faultline observes (every finding reported, every guarded
 * transaction that ended), for {@code faultline-junit}, which attributes them to the test that
 * caused them. Its subscription API uses JDK types only, so the extension also reaches the agent's
 * relocated copy of this package. Not API: public only for Faultline's own modules, and may change
 * without notice.
 */
package io.faultline.core.observe;
