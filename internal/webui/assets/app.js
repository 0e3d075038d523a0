// The porter's page: the form's result is POSTed to /v1/normalize?explain=true of this origin
// and the verdict shown.
const form = document.getElementById('check');
const verdict = document.getElementById('verdict');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const body = new TextEncoder().encode(form.elements.result.value);
  const resp = await fetch('/v1/normalize?explain=true', { method: 'POST', body });
  const answer = await resp.json();
  verdict.dataset.verdict = answer.error ? 'rejected' : 'accepted';
  verdict.textContent = answer.error ? `Rejected: ${answer.error.message}` : 'Accepted';
});
