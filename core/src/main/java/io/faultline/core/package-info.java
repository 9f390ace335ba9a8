/**
 * Internal: helpers shared by Faultline's own modules (safe log text). Not API: it is public only
 * so the other Faultline modules can use it, and may change or go without notice. The API of
 * faultline-core is in its sub-packages; see the README's "API and internal packages".
 */
package io.faultline.core;
