/**
 * Internal: {@code getsockopt(TCP_INFO)} through the Foreign Function &amp; Memory API on JDK 22
 * and later, built with method handles so the jar stays compiled for Java 17. Not API: it is public
 * only so the agent can define {@link io.faultline.core.net.foreign.GetsockoptBinder} in a module
 * of its own, and may change without notice.
 */
package io.faultline.core.net.foreign;
