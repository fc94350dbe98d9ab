// Drives the validated-signup example (config/examples/validated-signup.swift) with the browser client library.
import { CanopyClient } from '../js/canopy-client.mjs';

const client = new CanopyClient(); // the daemon that served this page
const signup = client.tree('validated-signup');
const inputs = [...document.querySelectorAll('input[data-title]')];

signup.on('change', ({ replica }) => {
    for (const input of inputs) {
        const type = input.type === 'password' ? 'SecureField' : 'TextField';
        const field = replica.find(type, (props) => props.title === input.dataset.title);
        input.dataset.node = field.id;
        if (document.activeElement !== input) input.value = field.props.text;
    }
    document.getElementById('count').textContent = replica.node('SignupForm/0:Form/1:Section/0:Text').props.text;
    const messages = replica.cellsOf('SignupForm').find((cell) => cell.name === 'messages').value;
    document.getElementById('messages').replaceChildren(...messages.map((m) => Object.assign(document.createElement('li'), { textContent: m })));
});
for (const input of inputs) input.addEventListener('input', () => signup.event(input.dataset.node, 'setText', input.value));
client.start();
