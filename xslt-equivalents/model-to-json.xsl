<?xml version="1.0" encoding="UTF-8"?>
<!--
  Model stage: the XML of `dagaz convert FILE -stage model -to xml` to the JSON of
  `-to json`, byte for byte (see docs/formats.md, "Model stage").

  The rule is generic: an element becomes an object whose first key is "element" (its
  name), then one key per attribute in document order ("-" in names becomes "_"; canonical
  integers become numbers, "true"/"false" booleans, everything else strings), then
  "children" (when it has child elements) or "text" (when it has text).
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="text" encoding="UTF-8"/>
  <xsl:strip-space elements="*"/>
  <xsl:preserve-space elements="op goal"/>

  <xsl:template match="/">
    <xsl:apply-templates select="*"/>
    <xsl:text>&#10;</xsl:text>
  </xsl:template>

  <xsl:template match="*">
    <xsl:text>{"element":</xsl:text>
    <xsl:call-template name="string">
      <xsl:with-param name="s" select="local-name()"/>
    </xsl:call-template>
    <xsl:for-each select="@*">
      <xsl:text>,</xsl:text>
      <xsl:call-template name="string">
        <xsl:with-param name="s" select="translate(local-name(), '-', '_')"/>
      </xsl:call-template>
      <xsl:text>:</xsl:text>
      <xsl:call-template name="value">
        <xsl:with-param name="v" select="string(.)"/>
      </xsl:call-template>
    </xsl:for-each>
    <xsl:choose>
      <xsl:when test="*">
        <xsl:text>,"children":[</xsl:text>
        <xsl:for-each select="*">
          <xsl:if test="position() &gt; 1">,</xsl:if>
          <xsl:apply-templates select="."/>
        </xsl:for-each>
        <xsl:text>]</xsl:text>
      </xsl:when>
      <xsl:when test="text()">
        <xsl:text>,"text":</xsl:text>
        <xsl:call-template name="string">
          <xsl:with-param name="s" select="string(.)"/>
        </xsl:call-template>
      </xsl:when>
    </xsl:choose>
    <xsl:text>}</xsl:text>
  </xsl:template>

  <!-- A canonical integer (no sign but "-", no leading zero, at most 15 digits). -->
  <xsl:template name="value">
    <xsl:param name="v"/>
    <xsl:variable name="d">
      <xsl:choose>
        <xsl:when test="starts-with($v, '-')"><xsl:value-of select="substring($v, 2)"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="$v"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="$v = 'true' or $v = 'false'"><xsl:value-of select="$v"/></xsl:when>
      <xsl:when test="string-length($d) &gt; 0 and string-length($d) &lt;= 15
                      and translate($d, '0123456789', '') = ''
                      and ($d = '0' or not(starts-with($d, '0')))
                      and $v != '-0'">
        <xsl:value-of select="$v"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="string">
          <xsl:with-param name="s" select="$v"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="string">
    <xsl:param name="s"/>
    <xsl:text>"</xsl:text>
    <xsl:call-template name="escape">
      <xsl:with-param name="s" select="$s"/>
    </xsl:call-template>
    <xsl:text>"</xsl:text>
  </xsl:template>

  <!-- Escapes ", \, LF, CR and TAB, one character class at a time. -->
  <xsl:template name="escape">
    <xsl:param name="s"/>
    <xsl:choose>
      <xsl:when test="translate($s, concat('&quot;', '\', '&#10;&#13;&#9;'), '') = $s">
        <xsl:value-of select="$s"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="c" select="substring($s, 1, 1)"/>
        <xsl:choose>
          <xsl:when test="$c = '&quot;'">\"</xsl:when>
          <xsl:when test="$c = '\'">\\</xsl:when>
          <xsl:when test="$c = '&#10;'">\n</xsl:when>
          <xsl:when test="$c = '&#13;'">\r</xsl:when>
          <xsl:when test="$c = '&#9;'">\t</xsl:when>
          <xsl:otherwise><xsl:value-of select="$c"/></xsl:otherwise>
        </xsl:choose>
        <xsl:call-template name="escape">
          <xsl:with-param name="s" select="substring($s, 2)"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>
</xsl:stylesheet>
