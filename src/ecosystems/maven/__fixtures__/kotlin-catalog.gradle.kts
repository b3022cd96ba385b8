plugins {
  `java-library`
  alias(libs.plugins.shadow)
}

dependencies {
  implementation(libs.slf4j)
  api(libs.okhttp)
  implementation(platform(libs.jackson.bom))
  testImplementation(libs.bundles.junit5)
  testImplementation(libs.missing.alias)
  testImplementation("org.msgpack:msgpack-core:0.8.20")
  testImplementation(
    group = "com.squareup.okhttp3",
    name = "mockwebserver",
    version = libs.versions.okhttp.legacy.get() // a range from the catalog
  )
  "latestDepTestImplementation"("org.msgpack:msgpack-core:0.9.8")
  implementation(kotlin("stdlib"))
  implementation(project(":internal-api"))
  testImplementation(testFixtures(project(":core")))
  val url = "https://example.com/{a,b}"
}
