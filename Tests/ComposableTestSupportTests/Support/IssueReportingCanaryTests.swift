import IssueReporting
import Testing

/// Proves that issues reported through IssueReporting fail Swift Testing tests in this binary.
///
/// On Linux that only happens when the test target links `IssueReportingTestSupport`; without
/// it every `TestStore` failure would print and pass. If this test fails with "Known issue was
/// not recorded", the link is missing.
@Test func reportedIssuesAreRecordedBySwiftTesting() {
  withKnownIssue {
    reportIssue("canary")
  } matching: { issue in
    issue.says("canary")
  }
}
