/**
 * Internal: generates {@code docs/configuration.md}, {@code docs/findings.md} and {@code
 * docs/metrics.md} from the declared keys, findings and meters, and the agent's {@code explain}
 * text. Not API: it is public only so the agent and the build can call it, and may change without
 * notice.
 */
package io.faultline.core.docs;
