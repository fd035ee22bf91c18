// The workbench's part in lessons (scenarios/lessonbook.h): a lesson's frame
// may load a challenge's starter's smallest failing run, found here by the
// same attack as the Workbench page's Check, with the same options and file
// name, so the lesson shows the run Check would step.
#pragma once

namespace idem {

// Gives lessons the challenges (called by registerChallengeScenarios).
void registerLessonRuns();

}  // namespace idem
