package io.faultline.agent.export;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

/**
 * The token a client must present as {@code Authorization: Bearer <token>}. Only its SHA-256 is
 * kept, and a presented token is hashed and compared in constant time, so neither the comparison's
 * time nor its length gives the token away.
 */
public final class BearerToken {

  private static final String SCHEME = "bearer ";

  private final byte[] digest;

  private BearerToken(byte[] digest) {
    this.digest = digest;
  }

  /** A token; {@code token} must not be blank. */
  public static BearerToken of(String token) {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("a bearer token must not be blank");
    }
    return new BearerToken(sha256(token));
  }

  /** Whether an {@code Authorization} header value (null when absent) carries this token. */
  boolean matches(String authorization) {
    if (authorization == null
        || authorization.length() < SCHEME.length()
        || !authorization.substring(0, SCHEME.length()).toLowerCase(Locale.ROOT).equals(SCHEME)) {
      return false;
    }
    return MessageDigest.isEqual(digest, sha256(authorization.substring(SCHEME.length()).trim()));
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return "BearerToken[***]";
  }
}
